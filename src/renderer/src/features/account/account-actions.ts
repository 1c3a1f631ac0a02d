/**
 * The balance at the service: asked when the app starts, when the key or the service changes,
 * after a task finishes (coalesced), and on demand. A failure keeps the last balance and says why.
 *
 * The newest request wins: an answer to an older one (asked of the service used before) is
 * dropped, so the demo sandbox's pretend money is never shown as the real service's balance.
 */
import type { TaskChangeView } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { toStudioError } from '../../model/studio-error.ts';
import { type StudioState, useStudio } from '../../stores/studio-store.ts';

const FINISHED_STATES = new Set(['saved', 'failed', 'expired']);
const AFTER_FINISH_DELAY_MS = 1_500;

/** Number of the newest request; answers to older ones are dropped. */
let latest = 0;
/** The account the newest request was made for (see accountIdentityOf). */
let askedFor: string | null = null;
let finishTimer: ReturnType<typeof setTimeout> | null = null;

/**
 * Which account a balance belongs to: the service in use, the chosen profile and address, and
 * whether a key is stored. A change means the balance shown may be someone else's.
 */
export function accountIdentityOf(state: Pick<StudioState, 'settings' | 'status'>): string {
  const service = state.status?.service ?? 'none';
  const s = state.settings;
  if (!s || service === 'none') return 'none';
  return [service, s.serviceProfile, s.baseUrl, s.hasApiKey].join('|');
}

/** Asks the service for the balance now; the answer replaces the one shown unless a newer request was made. */
export function refreshAccount(): Promise<void> {
  const request = ++latest;
  askedFor = accountIdentityOf(useStudio.getState());
  useStudio.getState().setAccount({ checking: true });
  return invoke('account.get', {})
    .then((view) => {
      if (request === latest) useStudio.getState().setAccount({ view, problem: null, checking: false });
    })
    .catch((err: unknown) => {
      if (request === latest)
        useStudio.getState().setAccount({ problem: toStudioError(err).message, checking: false });
    });
}

/**
 * Makes sure the balance shown belongs to `identity` (the account in use now): when it was
 * asked for another one, the old balance and problem are cleared and the balance asked again.
 * Called wherever a balance is shown, whenever the account in use changes: it asks at most
 * once per change, whichever way the settings arrived (a call's answer or an event).
 */
export function ensureAccountFor(identity: string): void {
  if (identity === 'none' || identity === askedFor) return;
  useStudio.getState().setAccount({ view: null, problem: null });
  void refreshAccount();
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
