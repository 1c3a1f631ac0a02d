/** Adding a task created elsewhere (by its service id) to the library, with its outputs. */
import { randomUUID } from 'node:crypto';
import { familyOf, type Task } from '../../../shared/index.ts';
import { InputValidationError } from '../../inputs/index.ts';
import { isoNow } from '../engine-clock.ts';
import { assertOpen, type EngineContext } from '../engine-context.ts';
import { entryOfDraft, estimateDraftCost, titleOf } from './task-drafts.ts';

/** A task id as the service writes them. */
const REMOTE_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * The library's task for service task `remoteId`: the one already imported, or a new one
 * recorded from what the service says about it (its outputs are then downloaded as usual).
 */
export async function importRemote(ctx: EngineContext, remoteId: string): Promise<Task> {
  assertOpen(ctx);
  const { answers, clock, connection, events, loop, store } = ctx;
  const clean = remoteId.trim();
  if (!REMOTE_ID.test(clean)) throw new InputValidationError('task_id', 'task_id: not a task id');
  const existing = store.getTaskByRemoteId(clean);
  if (existing) return existing;
  const client = connection.requireClient();
  const remote = await client.getTask(clean);
  const model = remote.model ?? 'unknown';
  const taskType = remote.taskType ?? 'unknown';
  const input = remote.input && typeof remote.input === 'object' ? remote.input : {};
  const id = randomUUID();
  const entry = entryOfDraft({ model, taskType }, connection.profile);
  let task = store.insertTask({
    id,
    model,
    taskType,
    entryId: entry?.id ?? null,
    family: familyOf(entry),
    title: titleOf({ model, taskType, input }),
    request: { model, task_type: taskType, input },
    inputs: [],
    estimateMicros: estimateDraftCost({ model, taskType, input }, connection.profile).micros,
    expectedMs: null,
    parentId: null,
    createdAt: remote.createdAt ?? isoNow(clock),
  });
  task = store.transaction(() => {
    store.transition(id, 'submitting', { from: ['queued'], detail: 'imported by task id' });
    return answers.apply(id, remote, ['submitting'], 'imported')?.task ?? null;
  }) as Task;
  events.changed(task);
  loop.kick();
  return task;
}
