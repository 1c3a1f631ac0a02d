/** The toast area: a polite live region for news, errors announced as alerts, each dismissible. */
import { useUi } from '../state/ui-state.ts';

export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  const dismiss = useUi((s) => s.dismissToast);
  return (
    <section className="toasts" aria-label="Notifications">
      <div role="status" aria-live="polite" className="toast-stack">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.tone}`}
            data-testid="toast"
            data-tone={toast.tone}
          >
            <span className="toast-message" role={toast.tone === 'error' ? 'alert' : undefined}>
              {toast.message}
              {toast.count > 1 ? (
                <span className="toast-count" data-testid="toast-count">
                  {' '}
                  ×{toast.count}
                </span>
              ) : null}
            </span>
            {toast.action ? (
              <button
                type="button"
                className="button button-small button-link"
                onClick={() => {
                  toast.action?.run();
                  dismiss(toast.id);
                }}
              >
                {toast.action.label}
              </button>
            ) : null}
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss notification"
              onClick={() => dismiss(toast.id)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
