/**
 * The toast area: a polite live region for news, errors announced as alerts, each dismissible.
 * In a wide window it sits at the bottom of the navigation column, which keeps its own content
 * above it (notices.css): the area's height and the room under the navigation's views are kept
 * as CSS variables (`--toasts-height`, `--toasts-room`), so the Boards section ends above the
 * toasts (it scrolls, and keeps BOARDS_ROOM_PX) and the toasts never reach up to the views: when
 * they need more room the older ones scroll, the newest in view (issue 22 review, item 10).
 */
import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';
import { type Toast, useUi } from '../state/ui-state.ts';

/**
 * A toast's words with each name in quotes (“Keepers”, a task's title: text the user gave) isolated
 * from the words around it (<bdi>), as names are everywhere else in the window.
 */
function withNamesIsolated(message: string): ReactNode[] {
  return message.split(/(?<=“)([^“”]*)(?=”)/).map((part, i) =>
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
    i % 2 === 1 ? <bdi key={i}>{part}</bdi> : part,
  );
}

/** What the Boards section keeps of the navigation column however many toasts show: its heading, two boards and + New board. */
const BOARDS_ROOM_PX = 140;

function useToastRoom(stack: RefObject<HTMLDivElement | null>, toasts: readonly Toast[]): void {
  // the newest toast is in view when the older ones scroll
  // biome-ignore lint/correctness/useExhaustiveDependencies: a change of the toasts is the cue
  useLayoutEffect(() => {
    const el = stack.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [stack, toasts]);

  useLayoutEffect(() => {
    const el = stack.current;
    const area = el?.parentElement;
    if (!el || !area) return;
    const root = document.documentElement;
    const update = () => {
      root.style.setProperty('--toasts-height', `${el.offsetHeight}px`);
      const views = document.querySelector('.nav-list');
      if (!views) return;
      const below = area.getBoundingClientRect().bottom - views.getBoundingClientRect().bottom;
      const room = below - 16 - BOARDS_ROOM_PX;
      root.style.setProperty('--toasts-room', `${Math.max(0, Math.floor(room))}px`);
    };
    const observer = new ResizeObserver(update);
    observer.observe(el);
    window.addEventListener('resize', update);
    update();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty('--toasts-height');
      root.style.removeProperty('--toasts-room');
    };
  }, [stack]);
}

export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  const dismiss = useUi((s) => s.dismissToast);
  const stack = useRef<HTMLDivElement>(null);
  useToastRoom(stack, toasts);
  return (
    <section className="toasts" aria-label="Notifications">
      <div ref={stack} role="status" aria-live="polite" className="toast-stack">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast toast-${toast.tone}`}
            data-testid="toast"
            data-tone={toast.tone}
          >
            <span className="toast-message" role={toast.tone === 'error' ? 'alert' : undefined}>
              {withNamesIsolated(toast.message)}
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
