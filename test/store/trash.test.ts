/**
 * Recently deleted in the store (migration 7), on real SQLite files: a deleted task is in no
 * list, search or count but Recently deleted's own, its cost still counts, it comes back whole,
 * a selection is walked page by page from its filter, and a library of the previous schema is
 * migrated with its counts and cost.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE_NAME, MIGRATIONS } from '../../src/core/store/index.ts';
import { runMigrations } from '../../src/core/store/migration-runner.ts';
import { LIST_ORDERS } from '../../src/shared/index.ts';
import { allPages, imageTask, songTask, steppingClock, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

const AT = '2025-03-02T09:00:00.000Z';

/** A store with six songs and four images (s0..s5, i0..i3, created a minute apart). */
function filled() {
  const store = libs.open(undefined, { now: steppingClock() });
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const song = i < 6;
    const id = song ? `s${i}` : `i${i - 6}`;
    const createdAt = new Date(Date.parse('2025-03-01T00:00:00Z') + i * 60_000).toISOString();
    const task = song
      ? songTask({ id, title: `Rain song ${i}`, createdAt })
      : imageTask({ id, title: `Bicycle ${i}`, createdAt });
    store.insertTask(task);
    store.transition(id, 'saved', {
      patch: { remoteId: `r-${id}`, usage: { type: 'point', frozen: null, consume: 1000 } },
    });
    ids.push(id);
  }
  return { store, ids };
}

describe('Recently deleted in the store', () => {
  it('leaves a deleted task out of every list, search and count, and lists it under trashed only', () => {
    const { store } = filled();
    const costBefore = store.costSummary();
    expect(store.trashTasks(['s1', 's2', 'i0', 's1'], AT)).toEqual(['s1', 's2', 'i0']);
    // already there: nothing moves twice
    expect(store.trashTasks(['s1'], AT)).toEqual([]);

    for (const order of LIST_ORDERS) {
      const live = allPages(store, { order, limit: 3 }).ids;
      expect(live.sort(), order).toEqual(['i1', 'i2', 'i3', 's0', 's3', 's4', 's5']);
      expect(allPages(store, { order, limit: 2, trashed: true }).ids.sort(), order).toEqual([
        'i0',
        's1',
        's2',
      ]);
    }
    expect(allPages(store, { search: 'rain', limit: 2 }).ids).toEqual(['s5', 's4', 's3', 's0']);
    expect(allPages(store, { search: 'rain', trashed: true }).ids).toEqual(['s2', 's1']);
    expect(allPages(store, { family: 'song', states: ['saved', 'failed'] }).ids).toEqual([
      's5',
      's4',
      's3',
      's0',
    ]);
    expect(allPages(store, { family: 'song', order: 'title', limit: 1 }).ids).toHaveLength(4);

    // counts from the totals and from the rows (a search, a time range) agree with the lists
    expect(store.countTasks().total).toBe(7);
    expect(store.countTasks({ trashed: true })).toEqual({
      total: 3,
      byState: expect.objectContaining({ saved: 3 }),
    });
    expect(store.countTasks({ search: 'rain' }).total).toBe(4);
    expect(store.countTasks({ search: 'rain', trashed: true }).total).toBe(2);
    expect(store.countTasks({ createdFrom: '2025-01-01T00:00:00Z' }).total).toBe(7);
    expect(store.countTasks({ family: 'image-edit', trashed: true }).total).toBe(1);
    expect(store.countInStates(['saved'])).toBe(7);
    // the money was spent: the budget still counts them
    expect(store.costSummary()).toEqual(costBefore);
    expect(store.getTask('s1')?.deletedAt).toBe(AT);
    expect(store.events('s1').at(-1)).toMatchObject({
      from: 'saved',
      to: 'saved',
      detail: 'moved to Recently deleted',
    });
    expect(store.integrityCheck()).toBe('ok');
  });

  it('restores tasks whole, and finds the tasks of one delete by its time', () => {
    const { store } = filled();
    store.trashTasks(['s1', 's2'], AT);
    store.trashTasks(['i0'], '2025-03-02T09:00:05.000Z');
    expect(store.trashedAt(AT)).toEqual(['s1', 's2']);
    expect(store.restoreTasks(store.trashedAt(AT))).toEqual(['s1', 's2']);
    expect(store.restoreTasks(['s1', 'nope'])).toEqual([]);
    expect(store.getTask('s2')?.deletedAt).toBeNull();
    expect(store.getTask('s2')?.outputs).toEqual([]);
    expect(store.events('s2').at(-1)?.detail).toBe('restored from Recently deleted');
    expect(store.countTasks().total).toBe(9);
    expect(store.countTasks({ trashed: true }).total).toBe(1);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('walks a selection page by page: the filter, less the exceptions, each task once', () => {
    const { store } = filled();
    store.trashTasks(['s5'], AT);
    const seen: string[] = [];
    let after: number | null = null;
    for (;;) {
      const page = store.selectionPage({ family: 'song' }, ['s3'], after, 2);
      if (page.length === 0) break;
      seen.push(...page.map((t) => t.id));
      // what the action does to the filter's matches changes nothing in the walk
      store.trashTasks(
        page.map((t) => t.id),
        AT,
      );
      after = page.at(-1)?.seq ?? null;
    }
    expect(seen).toEqual(['s4', 's2', 's1', 's0']);
    expect(store.selectionPage({ trashed: true, search: 'rain' }, [], null, 10).map((t) => t.id)).toEqual([
      's5',
      's4',
      's2',
      's1',
      's0',
    ]);
    expect(store.selectionPage({ states: [] }, [], null, 10)).toEqual([]);
    expect(store.selectedTasks(['i1', 'gone'])).toEqual([
      { id: 'i1', seq: expect.any(Number), state: 'saved', deletedAt: null },
    ]);
  });

  it('lists the tasks due to be purged, oldest deletion first', () => {
    const { store } = filled();
    store.trashTasks(['s3'], '2025-01-10T00:00:00.000Z');
    store.trashTasks(['s1'], '2025-01-05T00:00:00.000Z');
    store.trashTasks(['s2'], '2025-02-20T00:00:00.000Z');
    expect(store.trashedBefore('2025-02-01T00:00:00.000Z', 10)).toEqual(['s1', 's3']);
    expect(store.trashedBefore('2025-02-01T00:00:00.000Z', 1)).toEqual(['s1']);
  });

  it('a task made from a deleted one keeps its link while the parent can come back, and its title once purged', () => {
    const { store } = filled();
    store.insertTask(songTask({ id: 'child', parentId: 's0', parentOutput: 0 }));
    store.trashTasks(['s0'], AT);
    expect(store.getTask('child')?.parentId).toBe('s0');
    expect(store.lineage('child')?.madeFrom).toEqual([expect.objectContaining({ id: 's0', deletedAt: AT })]);
    expect(store.deleteTask('s0').deleted).toBe(true);
    expect(store.getTask('child')).toMatchObject({ parentId: null, parentGone: 'Rain song 0' });
    expect(store.integrityCheck()).toBe('ok');
  });

  it('migrates a library of the previous schema (6): counts, lists and full-text search as before, cost as billed', () => {
    const dir = libs.dir();
    mkdirSync(dir, { recursive: true });
    const old = new DatabaseSync(join(dir, DATABASE_FILE_NAME));
    runMigrations(old, MIGRATIONS.slice(0, 6), 'v6');
    const insert = old.prepare(`INSERT INTO tasks (id, seq, remote_id, model, task_type, family, title, state,
      request_json, prompt, favorite, estimate_micros, usage_consume, created_at, updated_at)
      VALUES (?, ?, ?, 'service/ace-step', 'txt2audio', 'song', ?, ?, '{"model":"service/ace-step","task_type":"txt2audio","input":{"style_prompt":"x"}}',
      ?, ?, 15000, ?, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`);
    insert.run('a', 1024, 'ra', 'Old harbour', 'saved', 'harbour waves', 1, 12000);
    insert.run('b', 2048, null, 'Old field', 'cancelled', 'field', 0, null);
    insert.run('c', 3072, 'rc', 'Old hill', 'failed', 'hill', 0, 3000);
    const before = old.prepare('SELECT sum(tasks) AS n, sum(spent_micros) AS spent FROM task_totals').get();
    old.close();

    const store = libs.open(dir);
    expect(store.countTasks()).toMatchObject({
      total: 3,
      byState: expect.objectContaining({ saved: 1, cancelled: 1, failed: 1 }),
    });
    // v6 counted each reported consume as micro-dollars (12,000 + 0 + 3,000)
    expect(Number(before?.spent)).toBe(15000);
    // migration 12 counts a task of an older library that the service billed (its consume in a
    // unit in doubt) at its estimate, one never created at 0: 15,000 + 0 + 15,000
    expect(store.costSummary().spentMicros).toBe(30000);
    expect(store.countTasks({ favorite: true }).total).toBe(1);
    expect(store.listTasks({ search: 'harbour' }).items.map((t) => t.id)).toEqual(['a']);
    expect(store.getTask('a')?.deletedAt).toBeNull();
    expect(store.integrityCheck()).toBe('ok');
    store.trashTasks(['a'], AT);
    expect(store.countTasks({ favorite: true }).total).toBe(0);
    expect(store.costSummary().spentMicros).toBe(30000); // a deleted task's cost still counts
    expect(store.integrityCheck()).toBe('ok');
  });
});
