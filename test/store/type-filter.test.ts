/**
 * The Makes and Model filters (what a task's catalog entry makes, its model) on a library of their
 * own: by entry, across pages, orders, states, a search and the counts (never the running totals).
 *
 * The library's Type filter (`family`) lists tasks by what they make, read from the catalog: a
 * multi-face swap among face swaps, a song's extend, edit or audio-to-audio among songs, only
 * the rest under Other; on a real SQLite file, across pages, orders, states and the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryStore } from '../../src/core/store/index.ts';
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

describe('the Makes and Model filters', () => {
  let media: LibraryStore;
  /** [id, model, task type, state], oldest first: the catalog's entry of each pair, or none. */
  const MEDIA: [string, string, string, TaskState][] = [
    ['song-a', 'service/ace-step', 'txt2audio', 'saved'],
    ['video-up-a', 'service/video-toolkit', 'upscale', 'saved'],
    ['flux-a', 'service/flux1-schnell', 'txt2img', 'saved'],
    ['video-gen-a', 'service/video-gen', 'txt2video', 'failed'],
    ['picture-up-a', 'service/image-toolkit', 'upscale', 'saved'],
    ['unknown-a', 'service/kling', 'video_generation', 'saved'],
    ['flux-b', 'service/flux1-schnell', 'txt2img', 'queued'],
    ['video-gen-b', 'service/video-gen', 'txt2video', 'saved'],
    ['image-gen-a', 'service/image-gen', 'txt2img', 'saved'],
  ];
  const newest = (...names: string[]) =>
    MEDIA.map(([id]) => id)
      .filter((id) => names.includes(id))
      .reverse();

  beforeAll(() => {
    media = libs.open();
    media.transaction(() => {
      MEDIA.forEach(([id, model, taskType, state], i) => {
        const task = songTask({ id, title: `Media ${id}`, model, taskType });
        media.insertTask({
          ...task,
          createdAt: new Date(Date.UTC(2025, 5, 1, 10, i)).toISOString(),
          request: { model, task_type: taskType, input: {} },
        });
        if (state !== 'queued') media.transition(id, state);
      });
    });
  });

  it('Makes lists the tasks whose entry makes that kind, newest first, across pages, with counts', () => {
    const videos = newest('video-up-a', 'video-gen-a', 'video-gen-b');
    expect(media.listTasks({ makes: 'video' }).items.map((t) => t.id)).toEqual(videos);
    expect(allPages(media, { makes: 'video', limit: 1 }).ids).toEqual(videos);
    expect(allPages(media, { makes: 'video', order: 'oldest', limit: 2 }).ids).toEqual([...videos].reverse());
    expect(media.countTasks({ makes: 'video' }).total).toBe(3);
    const pictures = newest('flux-a', 'picture-up-a', 'flux-b', 'image-gen-a');
    expect(allPages(media, { makes: 'image', limit: 3 }).ids).toEqual(pictures);
    expect(media.countTasks({ makes: 'image', states: ['saved'] }).byState).toEqual({ saved: 3 });
    expect(media.listTasks({ makes: 'audio' }).items.map((t) => t.id)).toEqual(['song-a']);
    // no 3D task was made: nothing, whatever the catalog holds
    expect(media.listTasks({ makes: '3d' }).items).toEqual([]);
    expect(media.countTasks({ makes: '3d' }).total).toBe(0);
  });

  it("Model lists one model's tasks; with Makes both must hold; a model the catalog has not is none", () => {
    expect(media.listTasks({ model: 'flux1-schnell' }).items.map((t) => t.id)).toEqual(['flux-b', 'flux-a']);
    expect(media.listTasks({ model: 'flux1-schnell', states: ['saved'] }).items.map((t) => t.id)).toEqual([
      'flux-a',
    ]);
    expect(
      media.listTasks({ model: 'video-gen', makes: 'video', search: 'media' }).items.map((t) => t.id),
    ).toEqual(['video-gen-b', 'video-gen-a']);
    expect(media.listTasks({ model: 'ace-step', makes: 'image' }).items).toEqual([]);
    expect(media.countTasks({ model: 'ace-step', makes: 'image' }).total).toBe(0);
    expect(media.listTasks({ model: 'kling' }).items).toEqual([]);
    // the same model and task type of another model: a picture's upscale is not a video's
    expect(media.listTasks({ model: 'video-toolkit' }).items.map((t) => t.id)).toEqual(['video-up-a']);
  });

  it.each(['title', 'starredFirst', 'costliest'] as ListOrder[])(
    'in order %s lists the same tasks',
    (order) => {
      expect(allPages(media, { makes: 'video', order, limit: 1 }).ids.sort()).toEqual(
        ['video-gen-a', 'video-gen-b', 'video-up-a'].sort(),
      );
      expect(allPages(media, { model: 'flux1-schnell', order, limit: 1 }).ids.sort()).toEqual([
        'flux-a',
        'flux-b',
      ]);
    },
  );
});
