/**
 * A board change asked from a dialog or a name field: `busy` while it runs, and the store's
 * refusal in words (boardErrorText) as `error` for the field to say.
 */
import { useState } from 'react';
import { boardErrorText } from './board-words.ts';

export function useBoardChange() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Runs `change`, then `done` once it has been made; a refusal leaves `done` out and says why. */
  const run = async (change: () => Promise<unknown>, done: () => void) => {
    setBusy(true);
    try {
      await change();
      done();
    } catch (err) {
      setError(boardErrorText(err));
      setBusy(false);
    }
  };
  return { error, busy, run };
}
