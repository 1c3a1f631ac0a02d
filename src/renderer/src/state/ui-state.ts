/** Which view is shown, the library selection and detail, toasts, and focus requests. */
import { create } from 'zustand';
import { asSentence, errorText } from '../model/studio-error.ts';

export type View = 'compose' | 'activity' | 'library' | 'history' | 'settings';
export const VIEWS: readonly View[] = ['compose', 'activity', 'library', 'history', 'settings'];

export type ToastTone = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  run(): void;
}

export interface Toast {
  id: number;
  tone: ToastTone;
  message: string;
  action: ToastAction | null;
  /** How many identical toasts in a row this one stands for (shown as "×3" when above 1). */
  count: number;
}

/** Controls other parts of the app can ask to focus (menu shortcuts, first run). */
export type FocusTarget =
  | 'search'
  | 'style-prompt'
  | 'face-target'
  | 'edit-prompt'
  | 'api-key'
  | 'base-url'
  | 'main';

export interface UiState {
  view: View;
  /** The library task shown in the detail panel. */
  detailId: string | null;
  /** The selected cards' ids (while `allMatching` is null). */
  selection: ReadonlySet<string>;
  /**
   * "Select all": every task the gallery's filter matches, loaded or not, but `except` (cards
   * unticked since); null while `selection` names the selected ids.
   */
  allMatching: { except: ReadonlySet<string> } | null;
  /** Last card clicked without shift: one end of a shift-click range. */
  anchorId: string | null;
  toasts: Toast[];
  focusRequest: { target: FocusTarget; nonce: number } | null;
  navigate(view: View): void;
  openDetail(id: string | null): void;
  setSelection(ids: Iterable<string>, anchorId?: string | null): void;
  /** Selects every task the gallery's filter matches (see allMatching). */
  selectAllMatching(): void;
  /** Ticks these cards (in "Select all": takes them out of the exceptions). */
  addToSelection(ids: readonly string[], anchorId: string): void;
  toggleSelected(id: string): void;
  /**
   * Tasks that left the library list (moved to Recently deleted or back, by anyone): out of the
   * selection, and out of Select all's exceptions, so the selection holds only what is shown.
   */
  leftList(ids: ReadonlySet<string>): void;
  forget(id: string): void;
  pushToast(tone: ToastTone, message: string, action?: ToastAction | null): number;
  dismissToast(id: number): void;
  requestFocus(target: FocusTarget): void;
}

const TOAST_LIMIT = 4;
const TOAST_MS: Record<ToastTone, number> = { info: 6000, success: 6000, error: 15000 };
let nextToastId = 1;
let nextFocusNonce = 1;

function sameToast(a: Toast, b: Toast): boolean {
  return a.tone === b.tone && a.message === b.message && a.action?.label === b.action?.label;
}

/**
 * Adds a toast; one identical to a toast shown replaces it, as the newest, with a higher count
 * (and a fresh timer, as the new id is the one the timeout dismisses), so "Queued" ×3 shows once
 * and the same failure said again does not stack (issue 22 review, item 10).
 */
export function withToast(toasts: readonly Toast[], toast: Toast): Toast[] {
  const same = toasts.find((t) => sameToast(t, toast));
  if (same) return [...toasts.filter((t) => t !== same), { ...toast, count: same.count + toast.count }];
  return [...toasts, toast].slice(-TOAST_LIMIT);
}

export const useUi = create<UiState>()((set, get) => ({
  view: 'compose',
  detailId: null,
  selection: new Set<string>(),
  allMatching: null,
  anchorId: null,
  toasts: [],
  focusRequest: null,
  navigate: (view) => set({ view }),
  openDetail: (detailId) => set({ detailId }),
  setSelection: (ids, anchorId) =>
    set((s) => ({
      selection: new Set(ids),
      allMatching: null,
      anchorId: anchorId === undefined ? s.anchorId : anchorId,
    })),
  selectAllMatching: () => set({ selection: new Set<string>(), allMatching: { except: new Set<string>() } }),
  addToSelection: (ids, anchorId) =>
    set((s) => {
      if (!s.allMatching) return { selection: new Set([...s.selection, ...ids]), anchorId };
      const except = new Set(s.allMatching.except);
      for (const id of ids) except.delete(id);
      return { allMatching: { except }, anchorId };
    }),
  toggleSelected: (id) =>
    set((s) => {
      if (s.allMatching) {
        const except = new Set(s.allMatching.except);
        if (except.has(id)) except.delete(id);
        else except.add(id);
        return { allMatching: { except }, anchorId: id };
      }
      const selection = new Set(s.selection);
      if (selection.has(id)) selection.delete(id);
      else selection.add(id);
      return { selection, anchorId: id };
    }),
  leftList: (ids) =>
    set((s) => {
      const held = (set: ReadonlySet<string>) => [...ids].some((id) => set.has(id));
      if (!held(s.selection) && !(s.allMatching && held(s.allMatching.except))) return s;
      const keep = (set: ReadonlySet<string>) => new Set([...set].filter((id) => !ids.has(id)));
      return {
        selection: keep(s.selection),
        allMatching: s.allMatching ? { except: keep(s.allMatching.except) } : null,
      };
    }),
  forget: (id) =>
    set((s) => {
      const excepted = s.allMatching?.except.has(id) === true;
      if (!s.selection.has(id) && s.detailId !== id && !excepted) return s;
      const selection = new Set(s.selection);
      selection.delete(id);
      const except = new Set(s.allMatching?.except);
      except.delete(id);
      return {
        selection,
        allMatching: s.allMatching ? { except } : null,
        detailId: s.detailId === id ? null : s.detailId,
      };
    }),
  pushToast: (tone, message, action = null) => {
    const id = nextToastId++;
    const toast = { id, tone, message: asSentence(message), action, count: 1 };
    set((s) => ({ toasts: withToast(s.toasts, toast) }));
    setTimeout(() => get().dismissToast(id), TOAST_MS[tone]);
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
  requestFocus: (target) => set({ focusRequest: { target, nonce: nextFocusNonce++ } }),
}));

/** Shows a failed call's message as an error toast, written as a sentence. */
export function toastError(err: unknown, action?: ToastAction): void {
  useUi.getState().pushToast('error', errorText(err), action ?? null);
}
