/** A task as the window holds it, for the renderer's unit tests: a queued song unless patched. */
import type { LoadedTask } from '../../src/renderer/src/model/task-status.ts';

export function loadedTask(patch: Partial<LoadedTask> = {}): LoadedTask {
  return {
    id: 'task',
    remoteId: null,
    model: 'service/ace-step',
    taskType: 'txt2audio',
    entryId: 'ace-step/txt2audio',
    family: 'song',
    title: 'task',
    state: 'queued',
    remoteStatus: null,
    request: { model: 'service/ace-step', task_type: 'txt2audio', input: {} },
    outputs: [],
    favorite: false,
    estimateMicros: null,
    usage: null,
    error: null,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    submittedAt: null,
    remoteCreatedAt: null,
    startedAt: null,
    endedAt: null,
    savedAt: null,
    expectedMs: null,
    parentId: null,
    parentOutput: null,
    parentGone: null,
    deletedAt: null,
    batchId: null,
    ...patch,
  };
}
