/**
 * The library's Type filter (`family`) lists tasks by what they make, read from the catalog: a
 * multi-face swap among face swaps, a song's extend, edit or audio-to-audio among songs, only
 * the rest under Other; on a real SQLite file, across pages, orders, states and the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryStore } from '../../src/main/store/index.ts';
import type { ListOrder, TaskState } from '../../src/shared/index.ts';
import { allPages, faceSwapTask, imageTask, songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
let store: LibraryStore;

/** [id, task type, state] of each task planted, oldest first. */
const PLANTED: [string, string, TaskState][] = [
  ['song-1', 'txt2audio', 'saved'],
  ['extend-1', 'extend', 'saved'],
  ['swap-1', 'face-swap', 'saved'],
  ['multi-1', 'multi-face-swap', 'failed'],
  ['edit-song-1', 'edit', 'failed'],
  ['remix-1', 'audio2audio', 'saved'],
  ['picture-1', 'image-edit', 'saved'],
  ['cutout-1', 'background-remove', 'saved'],
  ['multi-2', 'multi-face-swap', 'saved'],
  ['song-2', 'txt2audio', 'failed'],
  ['upscale-1', 'upscale', 'failed'],
  ['extend-2', 'extend', 'queued'],
];

const ids = (prefixes: string[]) =>
  PLANTED.map(([id]) => id).filter((id) => prefixes.some((p) => id.startsWith(p)));
const SONGS = ids(['song-', 'extend-', 'edit-song-', 'remix-']);
const SWAPS = ids(['swap-', 'multi-']);
const OTHER = ids(['cutout-', 'upscale-']);

beforeAll(() => {
  store = libs.open();
  store.transaction(() => {
    PLANTED.forEach(([id, taskType, state], i) => {
      const base = taskType === 'face-swap' ? faceSwapTask : taskType === 'image-edit' ? imageTask : songTask;
      const task = base({
        id,
        title: `Task ${id}`,
        taskType,
        createdAt: new Date(Date.UTC(2025, 4, 1, 10, i)).toISOString(),
      });
      store.insertTask({ ...task, request: { ...task.request, task_type: taskType } });
      if (state !== 'queued') store.transition(id, state);
    });
  });
});
afterAll(() => libs.cleanup());

describe('the Type filter', () => {
  it.each([
    ['song', SONGS],
    ['face-swap', SWAPS],
    ['image-edit', ['picture-1']],
    ['other', OTHER],
  ] as const)('%s lists every task that makes it, newest first, across pages', (family, expected) => {
    const newestFirst = [...expected].reverse();
    expect(store.listTasks({ family }).items.map((t) => t.id)).toEqual(newestFirst);
    expect(allPages(store, { family, limit: 2 }).ids).toEqual(newestFirst);
    expect(allPages(store, { family, order: 'oldest', limit: 2 }).ids).toEqual(expected);
    expect(store.countTasks({ family }).total).toBe(expected.length);
    // a time range counts from the tasks themselves rather than the running totals
    expect(store.countTasks({ family, createdFrom: '2025-01-01T00:00:00Z' }).total).toBe(expected.length);
  });

  it('a multi-face swap is listed under face swaps and a song extend under songs, with states', () => {
    expect(allPages(store, { family: 'face-swap', states: ['failed', 'saved'], limit: 1 }).ids).toEqual([
      'multi-2',
      'multi-1',
      'swap-1',
    ]);
    expect(store.listTasks({ family: 'song', states: ['saved'] }).items.map((t) => t.id)).toEqual([
      'remix-1',
      'extend-1',
      'song-1',
    ]);
    expect(store.countTasks({ family: 'song', states: ['failed', 'queued'] }).byState).toEqual({
      failed: 2,
      queued: 1,
    });
    expect(store.listTasks({ family: 'other', search: 'cutout' }).items.map((t) => t.id)).toEqual([
      'cutout-1',
    ]);
    expect(store.listTasks({ family: 'face-swap', search: 'multi' }).items.map((t) => t.id)).toEqual([
      'multi-2',
      'multi-1',
    ]);
  });

  it.each(['title', 'starredFirst', 'costliest'] as ListOrder[])(
    'in order %s lists the same tasks',
    (order) => {
      expect(allPages(store, { family: 'song', order, limit: 3 }).ids.sort()).toEqual([...SONGS].sort());
      expect(allPages(store, { family: 'face-swap', order, limit: 1 }).ids.sort()).toEqual([...SWAPS].sort());
    },
  );
});
