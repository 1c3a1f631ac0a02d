/**
 * The balance at the service: asked when the app starts, when the key or the service changes,
 * after a task finishes (coalesced), and on demand. A failure keeps the last balance and says why.
 *
 * The newest request wins: an answer to an older one (asked of the service used before) is
 * dropped, so the demo sandbox's pretend money is never shown as the real service's balance.
 */
import type { AccountView, StudioError, TaskChange } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { asSentence, toStudioError } from '../../model/studio-error.ts';
import { type ServiceCheck, type StudioState, useStudio } from '../../state/studio-state.ts';
import { balanceText } from './balance-text.ts';

/** Ends after which the service may have charged the account. */
const BALANCE_CHANGING_STATES = new Set(['saved', 'failed', 'expired']);
const AFTER_FINISH_DELAY_MS = 1_500;

/** Number of the newest request; answers to older ones are dropped. */
let latest = 0;
/** The account the newest request was made for (see accountIdentityOf). */
let askedFor: string | null = null;
let finishTimer: ReturnType<typeof setTimeout> | null = null;
/** The newest request's answer (null when it was itself overtaken). */
let newest: Promise<AccountAnswer> = Promise.resolve(null);

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

/** The balance call's answer: the account, or the error it failed with; null when a newer request was made. */
export type AccountAnswer = { view: AccountView } | { error: StudioError } | null;

/** Asks the service for the balance now; the answer replaces the one shown unless a newer request was made. */
export function refreshAccount(): Promise<AccountAnswer> {
  const request = ++latest;
  askedFor = accountIdentityOf(useStudio.getState());
  useStudio.getState().setAccount({ checking: true });
  newest = invoke('account.get', {})
    .then((view): AccountAnswer => {
      if (request !== latest) return null;
      useStudio.getState().setAccount({ view, problem: null, checking: false });
      return { view };
    })
    .catch((err: unknown): AccountAnswer => {
      if (request !== latest) return null;
      const error = toStudioError(err);
      useStudio.getState().setAccount({ problem: asSentence(error.message), checking: false });
      return { error };
    });
  return newest;
}

/** A balance answer in the words of a check: accepted (with the balance), refused, unreachable. */
export function checkOutcomeOf(
  what: ServiceCheck['what'],
  answer: { view: AccountView } | { error: StudioError },
): ServiceCheck {
  if ('view' in answer) return { what, outcome: 'accepted', balance: balanceText(answer.view) };
  const { kind, message } = answer.error;
  if (kind === 'unauthorized') return { what, outcome: 'refused', message: asSentence(message) };
  if (kind === 'unreachable') return { what, outcome: 'unreachable', message: asSentence(message) };
  // the plan may not show the balance, but the service took the key to say so
  if (kind === 'plan-refused') return { what, outcome: 'accepted', balance: null };
  return { what, outcome: 'problem', message: asSentence(message) };
}

/**
 * Tests what was just saved (a key, or the service's address) with the balance call, and keeps
 * the outcome for Settings to show (and returns it; null when no remote service is in use, so
 * nothing was checked). Nothing is undone on a failure: the key stays stored.
 */
export async function checkService(what: ServiceCheck['what']): Promise<ServiceCheck | null> {
  const { setServiceCheck, setStatus } = useStudio.getState();
  // the status says where tasks go now (its event may not have arrived yet)
  const status = await invoke('engine.status', {}).catch(() => null);
  if (status) setStatus(status);
  if (useStudio.getState().status?.service !== 'remote') {
    setServiceCheck(null);
    return null;
  }
  setServiceCheck({ what, outcome: 'checking' });
  let answer = await refreshAccount();
  // a newer request (the balance asked again as the settings changed) answers for this one
  while (answer === null) answer = await newest;
  const check = checkOutcomeOf(what, answer);
  setServiceCheck(check);
  return check;
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
export function refreshAccountAfterFinishes(changes: readonly TaskChange[]): void {
  if (!changes.some((c) => c.task && BALANCE_CHANGING_STATES.has(c.task.state))) return;
  if (finishTimer) clearTimeout(finishTimer);
  finishTimer = setTimeout(() => {
    finishTimer = null;
    void refreshAccount();
  }, AFTER_FINISH_DELAY_MS);
}
