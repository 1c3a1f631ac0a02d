/**
 * Shows a native <dialog> as modal while the component is mounted: showModal() makes the rest of
 * the page inert (the focus stays inside), Escape calls `onClose` instead of closing by itself,
 * and on unmount the dialog closes and focus returns to where it was. `focusFirst` picks what
 * gets the focus when it opens.
 */
import { type RefObject, useEffect, useRef } from 'react';

export function useModalDialog(
  ref: RefObject<HTMLDialogElement | null>,
  onClose: () => void,
  focusFirst: (dialog: HTMLDialogElement) => HTMLElement | null | undefined,
): void {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const focusRef = useRef(focusFirst);
  focusRef.current = focusFirst;

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
      previous?.focus();
    };
  }, [ref]);
}
