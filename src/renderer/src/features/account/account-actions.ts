/**
 * The balance at the service: asked when the app starts, when the key or the service changes,
 * after a task finishes (coalesced), and on demand. A failure keeps the last balance and says why.
 */
import type { TaskChangeView } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { toStudioError } from '../../model/studio-error.ts';
import { useStudio } from '../../stores/studio-store.ts';

const FINISHED_STATES = new Set(['saved', 'failed', 'expired']);
const AFTER_FINISH_DELAY_MS = 1_500;

let pending: Promise<void> | null = null;
let finishTimer: ReturnType<typeof setTimeout> | null = null;

/** Asks the service for the balance now (one request at a time). */
export function refreshAccount(): Promise<void> {
  if (pending) return pending;
  useStudio.getState().setAccount({ checking: true });
  pending = invoke('account.get', {})
    .then((view) => useStudio.getState().setAccount({ view, problem: null, checking: false }))
    .catch((err: unknown) =>
      useStudio.getState().setAccount({ problem: toStudioError(err).message, checking: false }),
    )
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** Refreshes the balance shortly after a task ends (a batch of endings asks once). */
export function refreshAccountAfterFinishes(changes: readonly TaskChangeView[]): void {
  if (!changes.some((c) => c.task && FINISHED_STATES.has(c.task.state))) return;
  if (finishTimer) clearTimeout(finishTimer);
  finishTimer = setTimeout(() => {
    finishTimer = null;
    void refreshAccount();
  }, AFTER_FINISH_DELAY_MS);
}
