/**
 * Shows a native <dialog> as modal while the component is mounted: showModal() makes the rest of
 * the page inert (the focus stays inside), Escape calls `onClose` instead of closing by itself,
 * and on unmount the dialog closes and focus returns to where it was. `focusFirst` picks what
 * gets the focus when it opens. When what had the focus is gone by then (the row of a deleted
 * board, "More" of a selection that ended), the focus goes to `fallback` (the caller's choice of
 * a neighbour), else to the main region's heading, else the library's search field: never to
 * the page's start.
 */
import { type RefObject, useEffect, useRef } from 'react';

/** Where the focus goes when its place is gone: the main region's heading, else the library's search field. */
function mainRegionFocus(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('#main h1');
  if (heading) {
    // a heading takes the focus from a script only with a tabindex (not in the Tab order)
    if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
    return heading;
  }
  return document.querySelector<HTMLElement>('#main input[type="search"]') ?? document.getElementById('main');
}

export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  onClose: () => void,
  focusFirst: (dialog: HTMLDialogElement) => HTMLElement | null | undefined,
  fallback?: () => HTMLElement | null | undefined,
): void {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const focusRef = useRef(focusFirst);
  focusRef.current = focusFirst;
  const fallbackRef = useRef(fallback);
  fallbackRef.current = fallback;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    focusRef.current(dialog)?.focus();
    const onCancel = (event: Event) => {
      event.preventDefault();
      onCloseRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      const back = previous?.isConnected ? previous : fallbackRef.current?.();
      (back?.isConnected ? back : mainRegionFocus())?.focus();
    };
  }, [ref]);
}
