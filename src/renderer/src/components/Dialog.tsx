/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (the focus
 * stays inside), Escape closes it, and focus returns to where it was.
 */
import { type ReactNode, useId, useRef } from 'react';
import { useModalDialog } from '../hooks/useModalDialog.ts';

export interface DialogProps {
  /** Words, with a name the user gave in <bdi> where there is one. */
  title: ReactNode;
  children: ReactNode;
  /** Buttons row. */
  actions: ReactNode;
  onClose(): void;
  /** Extra class, e.g. `dialog-wide`. */
  className?: string;
  testId?: string;
  /** Where the focus goes on closing when what opened it is gone (useModalDialog). */
  fallbackFocus?: () => HTMLElement | null | undefined;
}

export function Dialog({ title, children, actions, onClose, className, testId, fallbackFocus }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();
  useModalDialog(
    ref,
    onClose,
    (dialog) => dialog.querySelector<HTMLElement>('[data-autofocus]'),
    fallbackFocus,
  );

  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid={testId}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      <div id={bodyId} className="dialog-body">
        {children}
      </div>
      <div className="dialog-actions">{actions}</div>
    </dialog>
  );
}

export interface ConfirmDialogProps {
  title: ReactNode;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
  fallbackFocus?: DialogProps['fallbackFocus'];
  /** The confirmed work is under way: the confirm button takes no second press. */
  busy?: boolean;
}

/** Asks before something that cannot be undone or may cost money. Cancel has the focus. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  danger,
  onConfirm,
  onCancel,
  fallbackFocus,
  busy = false,
}: ConfirmDialogProps) {
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      fallbackFocus={fallbackFocus}
      testId="confirm-dialog"
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} data-autofocus>
            {cancelLabel}
          </button>
          <button
            type="button"
            className={danger ? 'button button-danger' : 'button button-primary'}
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {message}
    </Dialog>
  );
}
