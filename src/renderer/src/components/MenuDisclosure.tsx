/**
 * A toggle button that shows a panel of buttons under it (a disclosure, not an ARIA menu): Tab
 * reaches its buttons, Escape, a press elsewhere or the focus leaving it (Tab past its last
 * button) closes it, and pressing one of its buttons closes it too, with the focus on the toggle:
 * a dialog that button opens (useModalDialog) gives the focus back to the toggle, not to a button
 * gone with the panel. The selection toolbar's "More" and the Board filter's options are ones.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

export function MenuDisclosure(props: {
  /** What the toggle shows. */
  label: ReactNode;
  /** The toggle's name, when its label is a glyph. */
  ariaLabel?: string;
  /** Classes of the wrapper and of the panel, besides menu-disclosure(-panel) (components.css). */
  className: string;
  panelClassName: string;
  testId?: string;
  children: ReactNode;
}) {
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
    // the focus gone elsewhere in the window (not to nowhere: the window itself losing it)
    const onFocusOut = (event: FocusEvent) => {
      const to = event.relatedTarget;
      if (to instanceof Node && !root.current?.contains(to)) setOpen(false);
    };
    const box = root.current;
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    box?.addEventListener('focusout', onFocusOut);
    return () => {
      box?.removeEventListener('focusout', onFocusOut);
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open]);
  return (
    <span className={`menu-disclosure ${props.className}`} ref={root}>
      <button
        ref={toggle}
        type="button"
        className="button button-small"
        aria-label={props.ariaLabel}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {props.label}
      </button>
      {open ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: closes after a button inside was pressed (their own keys press them)
        <div
          id={`${id}-panel`}
          className={`menu-disclosure-panel ${props.panelClassName}`}
          data-testid={props.testId}
          onClick={(event) => {
            if (!(event.target as HTMLElement).closest('button')) return;
            toggle.current?.focus();
            setOpen(false);
          }}
        >
          {props.children}
        </div>
      ) : null}
    </span>
  );
}
