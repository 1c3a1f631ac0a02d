import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE_NAME,
  DatabaseTooNewError,
  LibraryStore,
  LibraryStoreError,
  MIGRATIONS,
  MigrationMismatchError,
  SCHEMA_VERSION,
  SchemaBehindError,
} from '../../src/core/store/index.ts';
import { migrationHash, runMigrations } from '../../src/core/store/migration-runner.ts';
import { FINISHED_AT_SERVICE_STATES } from '../../src/core/store/migrations.ts';
import { REMOTE_ACTIVE_STATES } from '../../src/shared/index.ts';
import { billedCostOf } from '../../src/shared/task/billed-cost.ts';
import { songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

interface MigrationRow {
  version: number;
  name: string;
  sha256: string;
  applied_at: string;
}

function appliedRows(dir: string): MigrationRow[] {
  return libs
    .raw(dir)
    .prepare('SELECT * FROM schema_migrations ORDER BY version')
    .all() as unknown as MigrationRow[];
}

describe('migrations', () => {
  it('creates the folder, the file and the whole schema on first open', () => {
    const dir = join(libs.dir(), 'nested', 'library');
    const store = libs.open(dir);
    expect(existsSync(join(dir, DATABASE_FILE_NAME))).toBe(true);
    expect(store.file).toBe(join(dir, DATABASE_FILE_NAME));
    const names = libs
      .raw(dir)
      .prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger') ORDER BY name")
      .all()
      .map((r) => r.name);
    for (const name of [
      'tasks',
      'task_inputs',
      'task_outputs',
      'task_events',
      'settings',
      'tasks_fts',
      'task_totals',
    ]) {
      expect(names).toContain(name);
    }
    const rows = appliedRows(dir);
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(rows[0]?.sha256).toBe(migrationHash(MIGRATIONS[0]?.sql ?? ''));
    expect(Number.isNaN(Date.parse(rows[0]?.applied_at ?? ''))).toBe(false);
    expect(libs.raw(dir).prepare('PRAGMA user_version').get()?.user_version).toBe(SCHEMA_VERSION);
    expect(libs.raw(dir).prepare('PRAGMA journal_mode').get()?.journal_mode).toBe('wal');
  });

  it('keeps the SQL of every shipped migration byte for byte (libraries record its sha256)', () => {
    const shipped = [
      '18b7f17ef2f26f4b0ef1ed9279c2cb60a25ed3e647bce55c181efc48984afe8f',
      'dfaceee87b76891e883735b4b7a0a051b369dbea2b75b1d7d265ad3c8914277e',
      '8b7e3a162bc196c838192fe07798b80d54d6d46dcd427af57936e184c25b1a61',
      'c1168bdfd0966b7fcc9fcbb66ec4aadc25d3245a8872d1f6922f1d6f63df2490',
      '303bb48d3908cbcf15d0284735adc89d69fee9ee7953ecf66086873a76134851',
      'b9a15f758d11c1f47a44ff9994d55fda0cc63267b68c05244a46f248df151b34',
      'e2a637a4fd632deef8cef5534c889df16c8db43b5e8f5526365c49b2c4efb43e',
      '1bbbf3f67a5358be93396be50fc72fa827afb28d364f1ae2040790b27688aeff',
      '7808fc861f3a233510397b5dc463c2336f78408eedd452f9e560b93f4b0dfe2b',
      'f3d76d75a8ebedb57cc330305acb2b27b082d66403ecb06cd3c5c593db84956d',
      '359f20850a73392c1412793c6c0e8c061922a887521b59d4969f551761d0e0e9',
      'f776fab7837896be11ec22d09782d34f9d4c308af7d764dfb471387b83b31d00',
      'be85559283d9a2bbb3df07b0ecb03889d26bc85571fbc8ebb706f1aa9fac25d7',
      '705b11e003ef4f28b3d98e94d10432ed8eda6203f68fb368501c533225a471ba',
      '9cb8bf3f6d1e4af1ccee7930578e93412c3a23f9e0f72715baa2cdd97d3aab24',
      '2f86da697e3a995d6a82b533a46ddfbaa8d9b8047473f893447f44f4df1ded5f',
      '899b01295ae6ed29f1fe45ddae3e28e8d4f83d973680903cb1908a4f2ea9519a',
      'b8d9d4a83c1bbd434c5961896cdbb54167a8264f40d13a9b2480a9e1fc38126f',
      '8456fd9bb8b99b671c725b865aae7ca7d20f15836be69b8024de8ed8f2c058ab',
      'b8652e835a907c28ccfe076c2c44100a4b1818f98516b84e5af8b29a45578842',
      '40c757cc9d4ce64f051c4a195038db4658a234d763397d2eb364adf1cd7f6250',
      'a5990f7eda34692712a7a937dca53249213a20ede7e4e4bfae1da618ce803c81',
      'c3d5b8e480be6d1dd9baeeaa8193e22c43dd320917c2bb734907b1c39b8a1521',
    ];
    expect(MIGRATIONS.slice(0, shipped.length).map((m) => migrationHash(m.sql))).toEqual(shipped);
  });

  it("v9 gives a v8 library's tasks their catalog entry, by task type as v8 looked them up", () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    const task = (model: string, taskType: string) =>
      first.insertTask({
        ...songTask(),
        model,
        taskType,
        request: { model, task_type: taskType, input: { prompt: 'p' } },
      }).id;
    const ids = {
      song: task('service/ace-step', 'txt2audio'),
      // sent under an override: v8 found image-edit's rules by task type alone
      overridden: task('Qubico/qwen-edit-image', 'image-edit'),
      oldDemo: task('service/image-edit', 'image-edit'),
      upscale: task('Qubico/image-toolkit', 'upscale'),
      sandboxImage: task('service/image-gen', 'txt2img'),
      flux: task('Qubico/flux1-schnell', 'txt2img'),
      fluxDev: task('Qubico/flux1-dev', 'txt2img'),
      unknown: task('Acme/stretcher', 'stretch'),
    };
    first.close();
    // the library as v8 left it: no entry column, 8 migrations applied
    const db = libs.raw(dir);
    db.exec('DROP INDEX tasks_by_entry'); // v11's, on the column v9 adds
    db.exec('DELETE FROM schema_migrations WHERE version = 11');
    db.exec('ALTER TABLE tasks DROP COLUMN entry_id');
    db.exec('DELETE FROM schema_migrations WHERE version = 9');
    db.exec('PRAGMA user_version = 8');
    expect(
      (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).some((c) => c.name === 'entry_id'),
    ).toBe(false);
    const store = libs.open(dir);
    expect(appliedRows(dir).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    const entryOf = (id: string) => store.getTask(id)?.entryId;
    expect(Object.fromEntries(Object.entries(ids).map(([k, id]) => [k, entryOf(id)]))).toEqual({
      song: 'ace-step/txt2audio',
      overridden: 'qwen-image/image-edit',
      oldDemo: 'qwen-image/image-edit',
      upscale: 'image-toolkit/upscale',
      sandboxImage: 'image-gen/txt2img',
      flux: 'flux1-schnell/txt2img',
      fluxDev: null,
      unknown: null,
    });
  });

  it("v18 counts an older library's saved results by kind, with their recorded sizes", () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    const saved = (kind: 'audio' | 'image', size: number | null) => {
      const id = first.insertTask(songTask()).id;
      first.replaceOutputs(id, [{ kind, url: 'https://example.test/x', field: 'url' }]);
      first.updateOutput(id, 0, { state: 'saved', path: `2026/01/${id}/output-1`, size });
    };
    saved('audio', 1000);
    saved('audio', 24);
    saved('image', 7);
    saved('image', null); // saved before sizes were recorded: not counted
    first.close();
    // the library as v17 left it
    const db = libs.raw(dir);
    for (const t of ['insert', 'delete', 'update']) db.exec(`DROP TRIGGER output_sizes_after_${t}`);
    db.exec('DROP TABLE output_sizes');
    db.exec('DELETE FROM schema_migrations WHERE version = 18');
    db.exec('PRAGMA user_version = 17');
    db.close();
    const store = libs.open(dir);
    expect(store.retention.sizes()).toEqual({
      byKind: [
        { kind: 'audio', files: 2, bytes: 1024 },
        { kind: 'image', files: 1, bytes: 7 },
      ],
      trashedBytes: 0,
    });
    expect(store.integrityCheck()).toBe('ok');
  });

  it('v19 gives each board of a v18 library its count of tasks not in Recently deleted, kept from then on', () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    const ids = ['a', 'b', 'c', 'd'].map((id) => first.insertTask(songTask({ id })).id);
    const keep = first.createBoard('Keep');
    const other = first.createBoard('Other');
    first.addToBoard(keep.id, ids);
    first.addToBoard(other.id, ['a']);
    first.trashTasks(['b'], '2026-01-01T00:00:00.000Z');
    first.close();
    // the library as v18 left it
    const db = libs.raw(dir);
    for (const t of [
      'board_tasks_count_after_insert',
      'board_tasks_count_after_delete',
      'tasks_board_count_before_delete',
      'tasks_board_count_after_trash',
    ])
      db.exec(`DROP TRIGGER ${t}`);
    db.exec('ALTER TABLE boards DROP COLUMN tasks');
    db.exec('DELETE FROM schema_migrations WHERE version = 19');
    db.exec('PRAGMA user_version = 18');
    db.close();
    const store = libs.open(dir);
    expect(store.boards().map((b) => [b.name, b.tasks])).toEqual([
      ['Keep', 3],
      ['Other', 1],
    ]);
    store.deleteTask('a'); // not in Recently deleted: off both boards
    store.deleteTask('b'); // in Recently deleted: already off
    store.restoreTasks(['b']);
    store.trashTasks(['c'], '2026-01-02T00:00:00.000Z');
    expect(store.boards().map((b) => [b.name, b.tasks])).toEqual([
      ['Keep', 1],
      ['Other', 0],
    ]);
    expect(store.integrityCheck()).toBe('ok');
  });

  it("v22 makes a v21 library's full-text index again with its prefixes, found as before and kept by the same triggers", () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    first.insertTask(songTask({ id: 'a', title: 'Rain walk', style: 'mellow rhodes' }));
    first.insertTask(songTask({ id: 'b', title: 'Red kite', style: 'brass band' }));
    first.trashTasks(['b'], '2026-01-01T00:00:00.000Z');
    first.close();
    const triggers = (db: DatabaseSync) =>
      db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all();
    // the library as v21 left it: tasks_fts without prefixes
    const db = libs.raw(dir);
    const before = triggers(db);
    db.exec(`DROP TABLE search_terms; DROP TABLE tasks_fts;
      CREATE VIRTUAL TABLE tasks_fts USING fts5 (title, prompt, lyrics, content = 'tasks',
        content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO tasks_fts (tasks_fts) VALUES ('rebuild');
      CREATE VIRTUAL TABLE search_terms USING fts5vocab(tasks_fts, instance);
      DELETE FROM schema_migrations WHERE version = 22; PRAGMA user_version = 21;`);
    db.close();
    const store = libs.open(dir);
    const after = libs.raw(dir);
    expect(triggers(after)).toEqual(before);
    expect(
      String(after.prepare("SELECT sql FROM sqlite_master WHERE name = 'tasks_fts'").get()?.sql),
    ).toContain("prefix = '1 2 3'");
    const found = (search: string, trashed = false) =>
      store
        .listTasks({ search, trashed })
        .items.map((t) => t.id)
        .sort();
    expect(found('r')).toEqual(['a']);
    expect(found('rhod')).toEqual(['a']);
    expect(found('r', true)).toEqual(['b']);
    store.insertTask(songTask({ id: 'c', title: 'Rhodes at night' }));
    store.rename('a', 'Dry spell');
    expect(found('rh')).toEqual(['a', 'c']);
    expect(found('dr')).toEqual(['a']);
    expect(found('wal')).toEqual([]);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('reopening applies nothing again and keeps the data', () => {
    const dir = libs.dir();
    const first = libs.open(dir);
    const task = first.insertTask(songTask());
    const before = appliedRows(dir);
    first.close();
    const second = libs.open(dir);
    expect(appliedRows(dir)).toEqual(before);
    expect(second.getTask(task.id)?.title).toBe('A song');
  });

  it('opened only to read: reads a library of this schema beside its writer, writes nothing, and refuses an older one unmigrated', () => {
    const dir = libs.dir();
    const writer = libs.open(dir);
    const task = writer.insertTask(songTask());
    const reader = LibraryStore.open(dir, { readOnly: true });
    expect(reader.getTask(task.id)?.title).toBe('A song');
    writer.setFavorite(task.id, true); // the writer goes on; the reader sees it committed
    expect(reader.getTask(task.id)?.favorite).toBe(true);
    expect(() => reader.setFavorite(task.id, false)).toThrow(/readonly/);
    reader.close();
    writer.close();
    libs.raw(dir).exec(`DELETE FROM schema_migrations WHERE version = ${MIGRATIONS.length}`);
    expect(() => LibraryStore.open(dir, { readOnly: true })).toThrow(SchemaBehindError);
    expect(appliedRows(dir)).toHaveLength(MIGRATIONS.length - 1); // nothing applied by the reader
  });

  it('refuses a database whose applied migration hash differs from the code', () => {
    const dir = libs.dir();
    libs.open(dir).close();
    libs.raw(dir).exec("UPDATE schema_migrations SET sha256 = 'deadbeef' WHERE version = 1");
    expect(() => LibraryStore.open(dir)).toThrow(MigrationMismatchError);
    expect(() => LibraryStore.open(dir)).toThrow(/migration 1 \(initial library schema\) with different SQL/);
  });

  it('refuses a database written by a newer app', () => {
    const dir = libs.dir();
    libs.open(dir).close();
    libs
      .raw(dir)
      .exec("INSERT INTO schema_migrations VALUES (99, 'from the future', 'abc', '2030-01-01T00:00:00Z')");
    let error: unknown;
    try {
      LibraryStore.open(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseTooNewError);
    expect((error as DatabaseTooNewError).databaseVersion).toBe(99);
    expect((error as Error).message).toMatch(/newer than this app knows/);
  });

  it('applies a new migration once, on the next open, keeping the old rows', () => {
    const dir = libs.dir();
    libs.open(dir).close();
    const version = MIGRATIONS.length + 1;
    const next = [
      ...MIGRATIONS,
      { version, name: 'add notes', sql: 'CREATE TABLE notes (id INTEGER PRIMARY KEY)' },
    ];
    const db = libs.raw(dir);
    expect(runMigrations(db, next, 'test')).toEqual([version]);
    expect(runMigrations(db, next, 'test')).toEqual([]);
    expect(appliedRows(dir).map((r) => [r.version, r.name])).toEqual([
      ...MIGRATIONS.map((m) => [m.version, m.name]),
      [version, 'add notes'],
    ]);
    expect(db.prepare('PRAGMA user_version').get()?.user_version).toBe(version);
    // The app that only knows the shipped migrations now refuses the newer database.
    expect(() => LibraryStore.open(dir)).toThrow(DatabaseTooNewError);
  });

  it('rolls back a failing migration entirely', () => {
    const dir = libs.dir();
    libs.open(dir).close();
    const broken = [
      ...MIGRATIONS,
      { version: MIGRATIONS.length + 1, name: 'broken', sql: 'CREATE TABLE a (x); CREATE TABLE oops (' },
    ];
    const db = libs.raw(dir);
    expect(() => runMigrations(db, broken, 'test')).toThrow();
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'a'").get()?.n).toBe(0);
    expect(appliedRows(dir).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('rejects a malformed migration list', () => {
    const db = libs.raw(libs.dir());
    const gap = [
      { version: 1, name: 'a', sql: 'SELECT 1' },
      { version: 3, name: 'c', sql: 'SELECT 1' },
    ];
    expect(() => runMigrations(db, gap, 'test')).toThrow(LibraryStoreError);
  });

  it('keeps the state lists of the partial indexes equal to the shared model', () => {
    const dir = libs.dir();
    libs.open(dir);
    const sqlOf = (name: string) =>
      String(libs.raw(dir).prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name)?.sql);
    const listed = (sql: string) =>
      [...(sql.match(/state IN \(([^)]*)\)/)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(listed(sqlOf('tasks_due_for_poll'))).toEqual([...REMOTE_ACTIVE_STATES]);
    expect(listed(sqlOf('tasks_finished_by_model'))).toEqual([...FINISHED_AT_SERVICE_STATES]);
  });

  it("counts an older library's songs at the llm usage the service reported, not at their estimate", () => {
    const dir = libs.dir();
    mkdirSync(dir, { recursive: true });
    // a real library file at schema 11, before what a task cost as billed (12)
    const old = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    runMigrations(old, MIGRATIONS.slice(0, 11), 'v11');
    const insert = old.prepare(`INSERT INTO tasks (id, seq, remote_id, model, task_type, family, title, state,
      request_json, favorite, estimate_micros, usage_json, usage_consume, created_at, updated_at)
      VALUES (?, ?, ?, 'Qubico/ace-step', 'txt2audio', 'song', ?, ?,
      '{"model":"Qubico/ace-step","task_type":"txt2audio","input":{"style_prompt":"x"}}', 0, 15000, ?, ?,
      '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`);
    const llm = (consume: number) => ({ type: 'llm', frozen: 15_000, consume });
    const songs: [string, string | null, string, { type: string; frozen: number; consume: number } | null][] =
      [
        ['billed', 'r1', 'saved', llm(12_000)],
        ['far-off', 'r2', 'saved', llm(40_000)], // more than twice the price: flagged, the larger counted
        ['unbilled', 'r3', 'failed', llm(0)],
        ['expired', 'r4', 'expired', llm(9_000)],
        ['points', 'r5', 'saved', { type: 'point', frozen: 150_000, consume: 150_000 }], // unit in doubt
        ['running', 'r6', 'processing', llm(0)],
        ['no-usage', 'r7', 'saved', null],
      ];
    songs.forEach(([id, remote, state, usage], i) => {
      insert.run(
        id,
        (i + 1) * 1024,
        remote,
        id,
        state,
        usage && JSON.stringify(usage),
        usage?.consume ?? null,
      );
    });
    old.close();

    const store = libs.open(dir);
    expect(appliedRows(dir).map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    // what the engine records today for the same answer
    for (const [id, , , usage] of songs.slice(0, 4))
      expect(store.getTask(id)?.cost, id).toEqual(billedCostOf(usage, 15_000, null));
    expect(store.getTask('far-off')?.cost).toMatchObject({
      micros: 40_000,
      flagged: true,
      publishedMicros: 15_000,
    });
    for (const id of ['points', 'running', 'no-usage']) expect(store.getTask(id)?.cost, id).toBeNull();
    // 12,000 + 40,000 + 0 + 9,000 exactly; the point-unit, running and usage-less songs at their estimate
    expect(store.costSummary().spentMicros).toBe(12_000 + 40_000 + 0 + 9_000 + 3 * 15_000);
    expect(store.integrityCheck()).toBe('ok');
  });
});
