import { type RefObject, useEffect } from 'react';
import { type FocusTarget, useUi } from '../state/ui-state.ts';

/** Focuses `ref` whenever something asks for `target` (a menu shortcut, the welcome dialog…). */
export function useFocusRequest(target: FocusTarget, ref: RefObject<HTMLElement | null>): void {
  const request = useUi((s) => (s.focusRequest?.target === target ? s.focusRequest.nonce : null));
  useEffect(() => {
    if (request === null) return;
    const frame = requestAnimationFrame(() => ref.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, [request, ref]);
}
