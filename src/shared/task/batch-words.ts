/**
 * What cancelling the rest of a batch did, in words: one wording for the window's "Cancel the
 * rest" and the CLI's `cancel --batch`. Pure text, no Node or React.
 */

import { tasksWord as tasks } from './task-count-words.ts';
import type { BatchCancelView } from './task-lineage.ts';

/** Of `n` cancelled, `resent` had been sent once before their answer was lost. */
function resentWords(resent: number, n: number): string {
  const billed = 'and may have been billed for that';
  if (resent === n && n === 1) return `it had been sent once before (the answer was lost) ${billed}`;
  if (resent === n) return `all of them had been sent once before (their answers were lost) ${billed}`;
  return `${resent} of them had been sent once before (their answers were lost) ${billed}; the others were never sent`;
}

/**
 * `cancelled 2 tasks still queued on this computer; none of them was sent or billed; 1 already at
 * the service goes on and is billed; 1 is waiting for your decision (it may have reached the
 * service); 3 had ended before` (lower case, no full stop: the CLI puts
 * it after `batch <id>: `, the window makes it a sentence).
 */
export function batchCancelText(view: BatchCancelView): string {
  const n = view.cancelled;
  const resent = view.cancelledAfterUncertain;
  const parts = [
    n === 0
      ? 'nothing was left to cancel on this computer'
      : resent === 0
        ? `cancelled ${tasks(n)} still queued on this computer; none of ${n === 1 ? 'it' : 'them'} was sent or billed`
        : `cancelled ${tasks(n)} still queued on this computer; ${resentWords(resent, n)}`,
  ];
  const sent = view.alreadySent;
  if (sent > 0) {
    parts.push(
      `${sent} already at the service ${sent === 1 ? 'goes' : 'go'} on and ${sent === 1 ? 'is' : 'are'} billed`,
    );
  }
  const waiting = view.uncertain;
  if (waiting > 0) {
    parts.push(
      `${waiting} ${waiting === 1 ? 'is' : 'are'} waiting for your decision (${waiting === 1 ? 'it' : 'they'} may have reached the service)`,
    );
  }
  if (view.ended > 0) parts.push(`${view.ended} had ended before`);
  return parts.join('; ');
}
