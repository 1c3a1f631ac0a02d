/**
 * A create answered with a task id that another task of the library already has. The library
 * keeps one task per service id, so the answer cannot be recorded; the new task may still have
 * been created (and billed) under some other id, so it becomes uncertain and the user decides.
 * The task that has the id is left as it was.
 */
import type { LibraryStore } from '../../store/index.ts';
import { CorruptTaskRowError } from '../../store/index.ts';
import type { SubmissionOutcome } from './submission-outcome.ts';

export class RemoteIdClashError extends Error {
  readonly remoteId: string;
  readonly otherTaskId: string;
  constructor(remoteId: string, other: { id: string; title: string | null }) {
    const name = other.title ? `“${other.title}” (${other.id})` : other.id;
    super(
      `the service answered with task id ${remoteId}, which is the id of another task in the library, ${name}`,
    );
    this.name = 'RemoteIdClashError';
    this.remoteId = remoteId;
    this.otherTaskId = other.id;
  }
}

/** The clash when another task than `taskId` has `remoteId`; null when none has it. */
export function remoteIdClashOf(
  store: LibraryStore,
  taskId: string,
  remoteId: string,
): RemoteIdClashError | null {
  let other: { id: string; title: string | null } | null;
  try {
    other = store.getTaskByRemoteId(remoteId);
  } catch (err) {
    // a task whose row cannot be read still holds the id
    if (!(err instanceof CorruptTaskRowError)) throw err;
    other = { id: err.taskId, title: null };
  }
  if (!other || other.id === taskId) return null;
  return new RemoteIdClashError(remoteId, other);
}

/** The event detail of a create answered with another task's id (create-settlement.ts leaves it to the user). */
export const ID_CLASH_DETAIL = 'the service answered with the id of task';

/** What happens to the task whose create was answered with another task's id. */
export function remoteIdClashSubmission(err: RemoteIdClashError): SubmissionOutcome {
  return {
    action: 'uncertain',
    error: {
      kind: 'uncertain',
      message: `${err.message}; that task is left as it was. The service may have created (and billed) this task or not: check at the service, then submit it again or discard it.`,
      code: null,
    },
    detail: `${ID_CLASH_DETAIL} ${err.otherTaskId}`,
  };
}
