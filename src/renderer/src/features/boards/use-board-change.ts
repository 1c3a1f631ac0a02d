/**
 * A board change asked from a dialog or a name field: `busy` while it runs, and the store's
 * refusal in words (boardErrorText) as `error` for the field to say.
 */
import { useRef, useState } from 'react';
import { boardErrorText } from './board-words.ts';

export function useBoardChange() {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // at once, not at the next render: Enter pressed twice in a name field (no disabled button
  // there) would make the change twice
  const running = useRef(false);
  /**
   * Runs `change`, then `done` once it has been made; a refusal leaves `done` out and says why.
   * A call while one runs does nothing.
   */
  const run = async (change: () => Promise<unknown>, done: () => void) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await change();
      done();
    } catch (err) {
      setError(boardErrorText(err));
      setBusy(false);
    } finally {
      running.current = false;
    }
  };
  return { error, busy, run };
}
