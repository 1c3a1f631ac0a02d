/**
 * The gallery's own state beside the tasks state: cards hidden while their delete can still be
 * undone, and which card the keyboard is on (the one card whose controls are in the tab order).
 */
import { create } from 'zustand';

export interface GalleryUiState {
  /** Tasks deleted in the UI whose delete call waits for the end of its undo window. */
  hidden: ReadonlySet<string>;
  /** The card the arrow keys move from (the gallery's one tab stop). */
  activeId: string | null;
  /** A card to scroll to and focus (after Escape closes the detail, after a delete). */
  focusRequest: { id: string; nonce: number } | null;
  hide(ids: readonly string[]): void;
  unhide(ids: readonly string[]): void;
  setActive(id: string | null): void;
  focusCard(id: string): void;
  /** Marks a focus request handled (a later mount of the grid must not replay it). */
  doneFocus(nonce: number): void;
}

let nextNonce = 1;

export const useGalleryUi = create<GalleryUiState>()((set) => ({
  hidden: new Set<string>(),
  activeId: null,
  focusRequest: null,
  hide: (ids) => set((s) => ({ hidden: new Set([...s.hidden, ...ids]) })),
  unhide: (ids) =>
    set((s) => {
      const hidden = new Set(s.hidden);
      for (const id of ids) hidden.delete(id);
      return { hidden };
    }),
  setActive: (activeId) => set((s) => (s.activeId === activeId ? s : { activeId })),
  focusCard: (id) => set({ activeId: id, focusRequest: { id, nonce: nextNonce++ } }),
  doneFocus: (nonce) => set((s) => (s.focusRequest?.nonce === nonce ? { focusRequest: null } : s)),
}));

/** The gallery's ids without the hidden ones (the same array when none is hidden). */
export function shownIds(ids: readonly string[], hidden: ReadonlySet<string>): readonly string[] {
  return hidden.size === 0 ? ids : ids.filter((id) => !hidden.has(id));
}
