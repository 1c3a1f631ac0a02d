/**
 * Bringing in tasks made elsewhere (issue 20, item 2), through the call handler the window
 * reaches, against the sandbox over real HTTP: tasks created straight at the service with the
 * key (as the vendor's web workspace or another computer would) are listed by the account's
 * history, by family, date and state, marked once the library holds them; importing them saves
 * their outputs, an id already in the library is skipped and said, an unknown id is said in
 * words, and a service without history says so in a sentence. And the account's value of a point
 * (credits against equivalent_in_usd) is read again after the user moves to another service.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import type { AccountHistoryPage, RemoteImportOutcome, Task, TaskPage } from '../../src/shared/index.ts';
import { type Harness, openBackend, removeDir, savedTask, tempDir } from './backend-fixtures.ts';

const KEY = 'history-test-key-0123456789';
/** A task id of the right form the service never made. */
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

let root: string;
let sandbox: Sandbox;
let h: Harness;

/** Creates a task at the sandbox directly, as the vendor's web workspace would; its service id. */
async function createElsewhere(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${sandbox.url}/api/v1/task`, {
    method: 'POST',
    headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { task_id: string } }).data.task_id;
}

let song: string;
let picture: string;

beforeAll(async () => {
  root = await tempDir('mts-history-');
  sandbox = await startSandbox({ apiKey: KEY, port: 0, timeScale: 0.02 });
  song = await createElsewhere({
    model: 'Qubico/ace-step',
    task_type: 'txt2audio',
    input: { style_prompt: 'harp and rain', lyrics: '[inst]', duration: 5 },
  });
  picture = await createElsewhere({
    model: 'Qubico/flux1-schnell',
    task_type: 'txt2img',
    input: { prompt: 'a lighthouse at dusk', width: 512, height: 512 },
  });
  h = await openBackend(join(root, 'user'));
  await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: sandbox.url });
  await h.ok('settings.setApiKey', { key: KEY });
});

afterAll(async () => {
  await h?.backend.close();
  await sandbox?.stop();
  if (root) await removeDir(root);
});

describe('the account’s history, through the backend', () => {
  it('lists the tasks made elsewhere, newest first, none in the library yet', async () => {
    const page = await h.ok<AccountHistoryPage>('account.history', { page: 1 });
    expect(page.rows.map((r) => r.remoteId)).toEqual([picture, song]);
    expect(page.rows[1]).toMatchObject({ model: 'Qubico/ace-step', taskType: 'txt2audio', inLibrary: null });
    expect(page.rows[1]?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page).toMatchObject({ page: 1, total: 2, hasMore: false });
  });

  it('filters by family, date and state', async () => {
    const llm = await h.ok<AccountHistoryPage>('account.history', { page: 1, family: 'llm' });
    expect(llm.rows.map((r) => r.remoteId)).toEqual([song]);
    const future = await h.ok<AccountHistoryPage>('account.history', { page: 1, since: '2999-01-01' });
    expect(future.rows).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    const since = await h.ok<AccountHistoryPage>('account.history', { page: 1, since: today, until: today });
    expect(since.rows).toHaveLength(2);
    const failed = await h.ok<AccountHistoryPage>('account.history', { page: 1, state: 'failed' });
    expect(failed.rows).toEqual([]);
    const backwards = await h.call('account.history', { page: 1, since: '2026-05-02', until: '2026-05-01' });
    expect(backwards.ok).toBe(false);
    if (!backwards.ok) expect(backwards.error.message).toBe('since: 2026-05-02 is after until: 2026-05-01');
    const badDay = await h.call('account.history', { page: 1, since: 'yesterday' });
    expect(badDay.ok).toBe(false);
  });

  it('imports tasks made elsewhere with their outputs, skips one already in the library, says an unknown id', async () => {
    const first = await h.ok<RemoteImportOutcome[]>('tasks.importRemote', { ids: [song] });
    expect(first).toEqual([
      expect.objectContaining({ remoteId: song, outcome: 'queued', taskId: expect.any(String) }),
    ]);
    const savedSong = await savedTask(h, first[0]!.taskId!, 'the imported song to be saved');
    expect(savedSong).toMatchObject({
      remoteId: song,
      model: 'Qubico/ace-step',
      entryId: expect.any(String),
    });
    expect(savedSong.outputs[0]?.kind).toBe('audio');
    expect(existsSync(join(root, 'user', 'library', savedSong.outputs[0]!.path!))).toBe(true);

    const again = await h.ok<RemoteImportOutcome[]>('tasks.importRemote', {
      ids: [song, picture, UNKNOWN],
    });
    expect(again[0]).toMatchObject({ remoteId: song, outcome: 'skipped', taskId: savedSong.id });
    expect(again[0]?.message).toMatch(/^already in the library as “.+”$/);
    expect(again[1]).toMatchObject({ remoteId: picture, outcome: 'queued' });
    expect(again[2]).toMatchObject({ remoteId: UNKNOWN, outcome: 'failed', taskId: null });
    expect(again[2]?.message).toMatch(/does not know this task/);
    const savedPicture = await savedTask(h, again[1]!.taskId!, 'the imported picture to be saved');
    expect(savedPicture.outputs[0]?.kind).toBe('image');
    // one create each, made elsewhere: the import sent none
    expect(sandbox.ledger()).toHaveLength(2);

    const page = await h.ok<AccountHistoryPage>('account.history', { page: 1 });
    expect(page.rows.map((r) => r.inLibrary)).toEqual([savedPicture.id, savedSong.id]);
    const list = await h.ok<TaskPage>('tasks.list', {});
    expect(list.items).toHaveLength(2);
  });

  it('says in a sentence when the service has no task history', async () => {
    sandbox.setFaults({ noTaskHistory: true });
    try {
      const r = await h.call('account.history', { page: 1 });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.kind).toBe('no-history');
        expect(r.error.message).toMatch(/^this service has no task history \(it answered HTTP 404\)/);
      }
    } finally {
      sandbox.setFaults({});
    }
  });
});

describe('the value of a point, after moving to another service (issue 20, item 4)', () => {
  const PICTURE = {
    model: 'Qubico/flux1-schnell',
    taskType: 'txt2img',
    input: { prompt: 'a paper boat', width: 256, height: 256 },
  };

  it('reads the new account’s value for the next cost instead of keeping the old one', async () => {
    // this account's credits are micro-dollars: a point is worth 1 micro-dollar
    const here = await h.ok<Task>('tasks.queue', PICTURE);
    const first = await savedTask(h, here.id, 'the first picture to be saved');
    expect(first.cost).toMatchObject({
      micros: 1_500,
      microsPerPoint: 1,
      pointValueFrom: 'account',
      flagged: false,
    });
    // another service, whose points are worth a tenth of a micro-dollar (15,000 for $0.0015)
    const other = await startSandbox({ apiKey: KEY, port: 0, timeScale: 0.02, profile: 'hosted' });
    try {
      await h.ok('settings.update', { baseUrl: other.url });
      await h.ok('settings.setApiKey', { key: KEY });
      const there = await h.ok<Task>('tasks.queue', {
        ...PICTURE,
        input: { ...PICTURE.input, prompt: 'a tin boat' },
      });
      const second = await savedTask(h, there.id, 'the picture made at the other service to be saved');
      expect(second.usage).toMatchObject({ type: 'point', consume: 15_000 });
      // the old account's value would read 15,000 points as $0.015, ten times the price, and flag it
      expect(second.cost).toMatchObject({
        micros: 1_500,
        microsPerPoint: 0.1,
        pointValueFrom: 'account',
        flagged: false,
      });
    } finally {
      await other.stop();
    }
  });
});
