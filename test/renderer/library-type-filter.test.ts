/**
 * A live task change joins the top of a gallery filtered by Type when the task makes what the
 * filter shows: a multi-face swap under face swaps, a song extend under songs (the store lists
 * them there too: test/store/type-filter.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { belongsAtTop, EMPTY_FILTERS } from '../../src/renderer/src/model/library-query.ts';
import type { LoadedTask } from '../../src/renderer/src/model/task-status.ts';
import { familyOf, TASK_TYPES } from '../../src/shared/index.ts';
import { loadedTask } from './loaded-task.ts';

function task(taskType: string): LoadedTask {
  const entry = TASK_TYPES.find((e) => e.taskType === taskType);
  const model = `service/${entry?.modelName ?? 'model'}`;
  return loadedTask({
    id: taskType,
    model,
    taskType,
    entryId: entry?.id ?? null,
    family: familyOf(entry),
    title: taskType,
    request: { model, task_type: taskType, input: {} },
  });
}

describe('belongsAtTop with the Type filter', () => {
  it.each([
    ['multi-face-swap', 'face-swap', true],
    ['multi-face-swap', 'other', false],
    ['extend', 'song', true],
    ['edit', 'song', true],
    ['extend', 'other', false],
    ['background-remove', 'other', true],
    ['a-type-the-catalog-does-not-know', 'other', true],
    ['face-swap', 'song', false],
  ] as const)('%s under %s: %s', (taskType, family, expected) => {
    expect(belongsAtTop(task(taskType), { ...EMPTY_FILTERS, family })).toBe(expected);
  });
});

describe('belongsAtTop with the Makes and Model filters', () => {
  const byEntry = (entryId: string) => {
    const entry = TASK_TYPES.find((e) => e.id === entryId);
    const model = `service/${entry?.modelName ?? 'model'}`;
    const taskType = entry?.taskType ?? 'unknown';
    return loadedTask({
      id: entryId,
      model,
      taskType,
      entryId: entry?.id ?? null,
      family: familyOf(entry),
      title: entryId,
      request: { model, task_type: taskType, input: {} },
    });
  };

  it.each([
    ['video-toolkit/upscale', { makes: 'video' }, true],
    ['image-toolkit/upscale', { makes: 'video' }, false],
    ['trellis/image-to-3d', { makes: '3d' }, true],
    ['flux1-schnell/txt2img', { makes: 'image', model: 'flux1-schnell' }, true],
    ['flux1-dev/txt2img', { makes: 'image', model: 'flux1-schnell' }, false],
    ['hunyuan/txt2video', { model: 'hunyuan' }, true],
    ['unknown/pair', { makes: 'video' }, false],
  ] as const)('%s under %o: %s', (entryId, filter, expected) => {
    expect(belongsAtTop(byEntry(entryId), { ...EMPTY_FILTERS, ...filter })).toBe(expected);
  });
});
