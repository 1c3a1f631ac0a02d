/**
 * How a task the service reports maps onto the local lifecycle.
 */
import type { RemoteTask, TaskError, TaskState } from '../../../shared/index.ts';

/**
 * The local state for a remote status. A task the service cancelled (`cancelled`, `canceled`)
 * ends `cancelled` here too; the service's own word stays in `remoteStatus`. Unknown statuses
 * stay visible in `remoteStatus` and poll on as `processing`.
 */
export function localStateOf(remote: RemoteTask): TaskState {
  switch (remote.status) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'pending':
      return 'pending';
    case 'staged':
      return 'staged';
    default:
      return 'processing';
  }
}

/** Why a task the service reports as cancelled ended so (this app cancels only what it never sent). */
export const CANCELLED_AT_SERVICE: TaskError = {
  kind: 'cancelled-at-service',
  message: 'the service cancelled this task (this app did not); any cost it reports still counts',
  code: null,
};

export function remoteFailureOf(remote: RemoteTask): TaskError {
  const e = remote.error;
  return {
    kind: 'service-failed',
    message: e
      ? `the service could not complete the task: ${e.message}`
      : 'the service reported the task as failed',
    code: e?.code ?? null,
  };
}

/** What a remote record changes on the local task; `remoteStatus` keeps the service's own word. */
export function remotePatchOf(remote: RemoteTask) {
  return {
    remoteStatus: remote.serviceStatus,
    usage: remote.usage,
    remoteCreatedAt: remote.createdAt,
    startedAt: remote.startedAt,
    endedAt: remote.endedAt,
  };
}
