/**
 * Lineage and batches in the library store (migrations 5 and 6): a library written before them
 * gets its re-runs' `rerun_of` as `parent_id`, and its tasks unlinked from a deleted parent the
 * parent's title and output back from their queued note; the chain up and down, the batches not
 * ended and their counts; deleting a parent clears the link and keeps its title; every read walks
 * an index. Real SQLite files.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, LibraryStore, MIGRATIONS } from '../../src/core/store/index.ts';
import { LINEAGE_SQL } from '../../src/core/store/lineage-records.ts';
import { runMigrations } from '../../src/core/store/migration-runner.ts';
import { billedCostOf } from '../../src/shared/task/billed-cost.ts';
import { batchCostOf, costStanding } from '../../src/shared/task/cost-standing.ts';
import { faceSwapTask, songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

describe('migration 5 on a library written by schema 4', () => {
  it('copies rerun_of into parent_id (no output: a re-run), drops the column, keeps everything else', () => {
    const dir = libs.dir();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    db.exec('PRAGMA foreign_keys = ON');
    runMigrations(db, MIGRATIONS.slice(0, 4), 'test');
    const insert = db.prepare(
      `INSERT INTO tasks (id, seq, model, task_type, family, title, state, request_json, created_at, updated_at,
         estimate_micros, rerun_of)
       VALUES (?, ?, 'service/ace-step', 'txt2audio', 'song', ?, 'saved', ?, ?, ?, 15000, ?)`,
    );
    const request = JSON.stringify({
      model: 'service/ace-step',
      task_type: 'txt2audio',
      input: { style_prompt: 'harbour', duration: 30 },
    });
    insert.run(
      'first',
      1,
      'Harbour song',
      request,
      '2025-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      null,
    );
    insert.run(
      'again',
      2,
      'Harbour song',
      request,
      '2025-01-02T00:00:00.000Z',
      '2025-01-02T00:00:00.000Z',
      'first',
    );
    insert.run(
      'third',
      3,
      'Harbour song',
      request,
      '2025-01-03T00:00:00.000Z',
      '2025-01-03T00:00:00.000Z',
      'again',
    );
    db.close();

    const store = libs.open(dir);
    const raw = libs.raw(dir);
    expect(raw.prepare('PRAGMA user_version').get()?.user_version).toBe(MIGRATIONS.length);
    const columns = raw
      .prepare('PRAGMA table_info(tasks)')
      .all()
      .map((c) => String(c.name));
    expect(columns).not.toContain('rerun_of');
    expect(columns).toEqual(expect.arrayContaining(['parent_id', 'parent_output', 'batch_id']));
    const lineage = (id: string) => {
      const t = store.getTask(id);
      return t && [t.parentId, t.parentOutput, t.batchId];
    };
    expect(lineage('first')).toEqual([null, null, null]);
    expect(lineage('again')).toEqual(['first', null, null]);
    expect(lineage('third')).toEqual(['again', null, null]);
    expect(store.getTask('again')).not.toHaveProperty('rerunOf');
    expect(store.lineage('third')?.madeFrom.map((i) => i.id)).toEqual(['again', 'first']);
    expect(store.lineage('first')?.madeInto.map((i) => i.id)).toEqual(['again']);
    expect(store.costSummary().spentMicros).toBe(45_000);
    expect(store.integrityCheck()).toBe('ok');
  });
});

describe('migration 6 on a library written by schema 5', () => {
  it('marks a task whose parent was deleted by the note of its queued event; a new delete keeps the title', () => {
    const dir = libs.dir();
    const db = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    db.exec('PRAGMA foreign_keys = ON');
    runMigrations(db, MIGRATIONS.slice(0, 5), 'test');
    const insert = db.prepare(
      `INSERT INTO tasks (id, seq, model, task_type, family, title, state, request_json, created_at, updated_at,
         parent_id, parent_output)
       VALUES (?, ?, 'service/ace-step', 'txt2audio', 'song', ?, 'saved', ?, ?, ?, ?, ?)`,
    );
    const event = db.prepare(
      "INSERT INTO task_events (task_id, at, from_state, to_state, detail) VALUES (?, ?, NULL, 'queued', ?)",
    );
    const request = JSON.stringify({ model: 'service/ace-step', task_type: 'txt2audio', input: {} });
    const rows: [string, string, string | null, number | null, string | null][] = [
      ['parent', 'Beach', null, null, null],
      ['child', 'Beach, longer', 'parent', 1, 'audio: output 1 of "Beach" sent as the service\'s URL'],
      // unlinked by schema 5's delete: both parts of the link were cleared
      ['by-url', 'Wave', null, null, 'image: output 2 of "Say "hi"; ok" sent as the service\'s URL'],
      [
        'by-file',
        'Tide remix',
        null,
        null,
        'style_audio: output 0 of "Tide" sent from the library file (its URL may have expired at the service); ' +
          'audio: output 1 of "Other" sent as the service\'s URL',
      ],
      ['rerun', 'Beach', null, null, null],
      ['odd-note', 'Odd', null, null, 'audio: output x of "Nope" sent as the service\'s URL'],
      ['other-note', 'Other', null, null, 'sent again after a restart'],
    ];
    rows.forEach(([id, title, parentId, parentOutput, note], i) => {
      const at = `2025-01-0${i + 1}T00:00:00.000Z`;
      insert.run(id, i + 1, title, request, at, at, parentId, parentOutput);
      event.run(id, at, note);
    });
    db.close();

    const store = libs.open(dir);
    const raw = libs.raw(dir);
    expect(raw.prepare('PRAGMA user_version').get()?.user_version).toBe(MIGRATIONS.length);
    const link = (id: string) => {
      const t = store.getTask(id);
      return t && [t.parentId, t.parentOutput, t.parentGone];
    };
    expect(link('child')).toEqual(['parent', 1, null]);
    expect(link('by-url')).toEqual([null, 2, 'Say "hi"; ok']);
    // the first note names the parent (the result used first)
    expect(link('by-file')).toEqual([null, 0, 'Tide']);
    // a re-run left no note: its deleted parent cannot be named
    expect(link('rerun')).toEqual([null, null, null]);
    expect(link('odd-note')).toEqual([null, null, null]);
    expect(link('other-note')).toEqual([null, null, null]);
    expect(link('parent')).toEqual([null, null, null]);

    store.deleteTask('parent');
    expect(link('child')).toEqual([null, 1, 'Beach']);
    expect(store.integrityCheck()).toBe('ok');
  });
});

describe('lineage', () => {
  it('walks up nearest first and down oldest first, with small items and a thumbnail', () => {
    const store = libs.open();
    const song = store.insertTask(songTask({ id: 'song', title: 'Song' }));
    store.replaceOutputs(song.id, [
      { kind: 'audio', url: 'https://cdn.test/a.mp3', field: 'audio_url' },
      { kind: 'audio', url: 'https://cdn.test/b.mp3', field: 'audio_url' },
    ]);
    const ext = store.insertTask(songTask({ id: 'ext', title: 'Longer', parentId: 'song', parentOutput: 1 }));
    const again = store.insertTask(
      songTask({ id: 'again', title: 'Song', parentId: 'song', parentOutput: null }),
    );
    const swap = store.insertTask(
      faceSwapTask({ id: 'swap', parentId: 'ext', parentOutput: 0, batchId: 'b1' }),
    );
    store.replaceOutputs(swap.id, [{ kind: 'image', url: 'https://cdn.test/s.png', field: 'image_url' }]);
    store.updateOutput(swap.id, 0, { state: 'saved', path: 'x/s.png', thumbPath: 'x/s.thumb.webp' });

    expect(store.lineage('swap')).toEqual({
      madeFrom: [
        {
          id: 'ext',
          title: 'Longer',
          taskType: 'txt2audio',
          state: 'queued',
          createdAt: ext.createdAt,
          parentOutput: 1,
          batchId: null,
          thumbPath: null,
          deletedAt: null,
        },
        expect.objectContaining({ id: 'song', parentOutput: null, thumbPath: null }),
      ],
      madeInto: [],
    });
    const down = store.lineage('song');
    expect(down?.madeFrom).toEqual([]);
    expect(down?.madeInto.map((i) => [i.id, i.parentOutput])).toEqual([
      ['ext', 1],
      ['again', null],
    ]);
    expect(store.lineage('ext')?.madeInto).toEqual([
      expect.objectContaining({ id: 'swap', batchId: 'b1', parentOutput: 0, thumbPath: 'x/s.thumb.webp' }),
    ]);
    expect(again.parentOutput).toBeNull();
    expect(store.lineage('nope')).toBeNull();
  });

  it('stops after 20 ancestors', () => {
    const store = libs.open();
    store.insertTask(songTask({ id: 't0' }));
    for (let i = 1; i <= 25; i++) store.insertTask(songTask({ id: `t${i}`, parentId: `t${i - 1}` }));
    const up = store.lineage('t25')?.madeFrom.map((i) => i.id);
    expect(up).toHaveLength(20);
    expect(up?.[0]).toBe('t24');
    expect(up?.[19]).toBe('t5');
  });

  it('lists every child id of a task, past the 200 the lineage view shows (a delete tells each one)', () => {
    const store = libs.open();
    store.insertTask(songTask({ id: 'p' }));
    store.transaction(() => {
      for (let i = 0; i < 205; i++) store.insertTask(songTask({ id: `c${i}`, parentId: 'p' }));
    });
    store.insertTask(songTask({ id: 'other' }));
    const ids = store.childIds('p');
    expect(ids).toHaveLength(205);
    expect(ids[0]).toBe('c0');
    expect(ids[204]).toBe('c204');
    expect(store.lineage('p')?.madeInto).toHaveLength(200);
    expect(store.childIds('other')).toEqual([]);
  });

  it('refuses an output without a parent; deleting the parent clears the link and keeps its title', () => {
    const store = libs.open();
    store.insertTask(songTask({ id: 'p', title: 'First title' }));
    expect(() => store.insertTask(songTask({ parentOutput: 0 }))).toThrow(
      /parentOutput is given without parentId/,
    );
    const child = store.insertTask(songTask({ id: 'c', parentId: 'p', parentOutput: 0 }));
    expect([child.parentId, child.parentOutput, child.parentGone]).toEqual(['p', 0, null]);
    store.insertTask(songTask({ id: 'again', parentId: 'p', parentOutput: null }));
    store.insertTask(songTask({ id: 'grandchild', parentId: 'c', parentOutput: 0 }));
    store.rename('p', 'Beach at noon');
    store.deleteTask('p');
    const link = (id: string) => {
      const t = store.getTask(id);
      return t && [t.parentId, t.parentOutput, t.parentGone];
    };
    // the title the parent had when it was deleted
    expect(link('c')).toEqual([null, 0, 'Beach at noon']);
    expect(link('again')).toEqual([null, null, 'Beach at noon']);
    expect(link('grandchild')).toEqual(['c', 0, null]);
    expect(store.lineage('c')).toEqual({
      madeFrom: [],
      madeInto: [expect.objectContaining({ id: 'grandchild' })],
    });
    expect(store.integrityCheck()).toBe('ok');
  });

  it('writes the detail of the first event', () => {
    const store = libs.open();
    const t = store.insertTask(
      songTask({ queuedDetail: 'audio: output 0 of "x" sent as the service\'s URL' }),
    );
    expect(store.events(t.id)[0]?.detail).toBe('audio: output 0 of "x" sent as the service\'s URL');
  });
});

describe('batches', () => {
  it('summarises the batches not ended, newest first; one batch by id even when it ended', () => {
    const store = libs.open();
    const at = (m: number) => new Date(Date.UTC(2025, 2, 1, 10, m)).toISOString();
    for (let i = 0; i < 4; i++) {
      store.insertTask(faceSwapTask({ id: `a${i}`, title: 'Swap A', batchId: 'A', createdAt: at(0) }));
    }
    store.insertTask(
      songTask({ id: 'b0', title: 'Song B', batchId: 'B', createdAt: at(5), estimateMicros: null }),
    );
    store.insertTask(songTask({ id: 'b1', title: 'Song B', batchId: 'B', createdAt: at(5) }));
    store.insertTask(songTask({ id: 'loose', createdAt: at(6) }));
    store.transition('a0', 'saved');
    store.transition('a1', 'failed');
    store.transition('a2', 'processing');
    for (const id of ['b0', 'b1']) store.transition(id, 'saved');

    expect(store.batches()).toEqual([
      {
        batchId: 'A',
        title: 'Swap A',
        taskType: 'face-swap',
        createdAt: at(0),
        total: 4,
        done: 1,
        failed: 1,
        active: 1,
        queued: 1,
        uncertain: 0,
        cancelled: 0,
        retried: 0,
        estimateMicros: 40_000,
        cost: { charged: { tasks: 1, micros: 10_000 }, pending: { tasks: 2, micros: 20_000 }, notBilled: 1 },
        taskIds: ['a0', 'a1', 'a2', 'a3'],
      },
    ]);
    expect(store.batches('B')).toEqual([
      expect.objectContaining({
        batchId: 'B',
        total: 2,
        done: 2,
        estimateMicros: null,
        taskIds: ['b0', 'b1'],
      }),
    ]);
    expect(store.batches('none')).toEqual([]);
    expect(store.batchStates('A').map((t) => t.state)).toEqual(['saved', 'failed', 'processing', 'queued']);
    store.insertTask(faceSwapTask({ id: 'c0', batchId: 'C', createdAt: at(9) }));
    expect(store.batches().map((b) => b.batchId)).toEqual(['C', 'A']);
  });

  it("totals its cost with the rows' own figures: charged, pending, not billed (a failure the service did not bill counts nothing)", () => {
    const store = libs.open();
    const at = (i: number) => new Date(Date.UTC(2026, 1, 1, 0, i)).toISOString();
    for (let i = 0; i < 5; i++) {
      store.insertTask(faceSwapTask({ id: `m${i}`, batchId: 'M', createdAt: at(i), estimateMicros: 50_000 }));
    }
    const ended = (consume: number) => {
      const usage = { type: 'point', frozen: 0, consume };
      return { usage, cost: billedCostOf(usage, 50_000, null) };
    };
    // billed 500,000 points of 1e-7 USD: $0.05
    store.transition('m0', 'saved', { patch: { remoteId: 'r0', ...ended(500_000) } });
    store.transition('m1', 'failed'); // refused: never created
    store.transition('m2', 'failed', { patch: { remoteId: 'r2', ...ended(0) } }); // failed, billed nothing
    store.transition('m3', 'processing', {
      patch: { remoteId: 'r3', usage: { type: 'point', frozen: 500_000, consume: 0 } },
    });
    const [summary] = store.batches('M');
    expect(summary?.cost).toEqual({
      charged: { tasks: 1, micros: 50_000 },
      pending: { tasks: 2, micros: 100_000 },
      notBilled: 1 + 1,
    });
    // the same figures as each task's row says (one rule: costStanding)
    const rows = ['m0', 'm1', 'm2', 'm3', 'm4'].map((id) => costStanding(store.getTask(id)!));
    expect(rows.map((r) => r.standing)).toEqual([
      'charged',
      'not-billed',
      'not-billed',
      'pending',
      'pending',
    ]);
    expect(batchCostOf(['m0', 'm1', 'm2', 'm3', 'm4'].map((id) => store.getTask(id)!))).toEqual(
      summary?.cost,
    );
  });

  it('counts the failures retried (a re-run of each), not the ones made into something else', () => {
    const store = libs.open();
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    for (let i = 0; i < 3; i++)
      store.insertTask(faceSwapTask({ id: `f${i}`, batchId: 'F', createdAt: at(i) }));
    for (const id of ['f0', 'f1', 'f2']) store.transition(id, 'failed');
    // f0 retried twice (a retry that failed, then another); f1 made into an upscale of its output
    store.insertTask(faceSwapTask({ id: 'r0', parentId: 'f0', parentOutput: null, createdAt: at(5) }));
    store.insertTask(faceSwapTask({ id: 'r1', parentId: 'f0', parentOutput: null, createdAt: at(6) }));
    store.insertTask(faceSwapTask({ id: 'u1', parentId: 'f1', parentOutput: 0, createdAt: at(7) }));
    expect(store.batches('F')[0]).toMatchObject({ failed: 3, retried: 1 });
    expect(store.retryIds('f0')).toEqual(['r0', 'r1']);
    expect(store.retryIds('f1')).toEqual([]);
    expect(store.batchStates('F').map((t) => t.retries)).toEqual([2, 0, 0]);
  });
});

describe('query plans of lineage and batches', () => {
  it('walk an index, never the whole table', () => {
    const dir = libs.dir();
    const store = LibraryStore.open(dir, { idleCheckpointMs: 0 });
    store.transaction(() => {
      for (let i = 0; i < 200; i++) store.insertTask(songTask({ batchId: i % 2 ? `b${i % 7}` : null }));
    });
    store.close();
    const raw = libs.raw(dir);
    for (const sql of Object.values(LINEAGE_SQL)) {
      const steps = raw
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all(
          ...((sql.includes('$id') ? [{ id: 'x', limit: 10 }] : sql.includes('?') ? ['x'] : []) as never[]),
        )
        .map((r) => String(r.detail));
      expect(steps.some((s) => s.startsWith('SEARCH tasks USING INDEX'))).toBe(true);
      for (const step of steps) expect(step, `${sql}\n${steps.join(' | ')}`).not.toMatch(/^SCAN/);
    }
  });
});
