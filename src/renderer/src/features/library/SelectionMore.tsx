/**
 * The selection toolbar's "More": in a library too narrow for every action on one row, the
 * actions used least (Queue again from an export and Remove from the board; in a narrower one
 * also Add to board and Re-run) are the buttons of a panel this toggle shows under it, so the
 * toolbar stays one row (the window-fit tests measure it at 800 x 600 and 1280 x 800). A disclosure, as the boards' options are: Tab reaches its buttons,
 * Escape or a click elsewhere closes it, and using one of them closes it too.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

/** Which actions go into "More" for a library this wide (its summary row's width in pixels). */
export type SelectionOverflow = 'none' | 'rare' | 'most';

/** Widths measured at the toolbar's short labels (gallery.css), with Compare shown. */
export function selectionOverflowAt(width: number): SelectionOverflow {
  if (width === 0 || width >= 1100) return 'none';
  return width >= 860 ? 'rare' : 'most';
}

export function SelectionMore({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLSpanElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);
  return (
    <span className="selection-more" ref={root}>
      <button
        ref={toggle}
        type="button"
        className="button button-small"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        More<span aria-hidden="true"> ▾</span>
      </button>
      {open ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: closes after a button inside was pressed (their own keys press them)
        <div
          id={`${id}-panel`}
          className="selection-more-panel"
          data-testid="selection-more"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('button')) setOpen(false);
          }}
        >
          {children}
        </div>
      ) : null}
    </span>
  );
}
