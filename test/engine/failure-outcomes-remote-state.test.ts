/**
 * How a remote status maps onto the local lifecycle: a task the service cancelled ends
 * `cancelled` (and stops being polled), its own word stays visible, unknown statuses poll on.
 */
import { describe, expect, it } from 'vitest';
import { localStateOf, remotePatchOf } from '../../src/core/engine/polling/remote-state.ts';
import { normaliseTaskResponse, type RemoteTask } from '../../src/shared/service/index.ts';
import { REMOTE_ACTIVE_STATES } from '../../src/shared/task/task-model.ts';
import { faceSwapCreateFormA } from '../service/wire-payloads.ts';

function remoteWithStatus(status: string): RemoteTask {
  const payload = faceSwapCreateFormA();
  payload.data.status = status;
  const result = normaliseTaskResponse(payload);
  if (!result.ok) throw new Error(result.reason);
  return result.task;
}

describe('localStateOf', () => {
  it.each([
    ['completed', 'completed'],
    ['Success', 'completed'],
    ['failed', 'failed'],
    ['error', 'failed'],
    ['cancelled', 'cancelled'],
    ['Canceled', 'cancelled'],
    ['pending', 'pending'],
    ['starting', 'pending'],
    ['staged', 'staged'],
    ['in_progress', 'processing'],
    ['retry', 'processing'],
  ])('maps the service status %j to the local state %j', (status, local) => {
    expect(localStateOf(remoteWithStatus(status))).toBe(local);
  });

  it('stops polling a task the service cancelled: cancelled is not an active state', () => {
    expect(REMOTE_ACTIVE_STATES).not.toContain(localStateOf(remoteWithStatus('canceled')));
  });

  it("keeps the service's own word in remoteStatus", () => {
    expect(remotePatchOf(remoteWithStatus(' Canceled ')).remoteStatus).toBe('canceled');
    expect(remotePatchOf(remoteWithStatus('queued_for_gpu')).remoteStatus).toBe('queued_for_gpu');
  });
});
