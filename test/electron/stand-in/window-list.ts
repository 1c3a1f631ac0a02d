/**
 * The open windows (Electron's WindowList) and the Event objects Electron hands to listeners.
 * The app module learns here when the last window has gone, without importing the windows.
 */

/** Electron's Event: `preventDefault()` and `defaultPrevented`, plus the event's own fields. */
export interface StandInEvent {
  preventDefault(): void;
  readonly defaultPrevented: boolean;
  [field: string]: unknown;
}

export function makeEvent(fields: Record<string, unknown> = {}): StandInEvent {
  let prevented = false;
  const event = {
    preventDefault() {
      prevented = true;
    },
    get defaultPrevented() {
      return prevented;
    },
  };
  return Object.assign(event, fields);
}

/** What the quit and exit paths need of a window. */
export interface ListedWindow {
  /** Starts closing as `win.close()` does (the window may refuse in its `close` event). */
  close(): void;
  /** Destroys at once, without a `close` event (app.exit's path). */
  destroy(): void;
}

const open = new Set<ListedWindow>();
let allClosed: () => void = () => {};
/** Called when a window refuses to close (its `close` event was prevented). */
let closeCancelled: () => void = () => {};

export function setWindowListHandlers(handlers: { allClosed(): void; closeCancelled(): void }): void {
  allClosed = handlers.allClosed;
  closeCancelled = handlers.closeCancelled;
}

export function addWindow(window: ListedWindow): void {
  open.add(window);
}

export function removeWindow(window: ListedWindow): void {
  if (!open.delete(window)) return;
  if (open.size === 0) allClosed();
}

export function windowCloseCancelled(): void {
  closeCancelled();
}

export function openWindows(): ListedWindow[] {
  return [...open];
}
