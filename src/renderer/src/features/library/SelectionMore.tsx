/**
 * The selection toolbar's "More": in a library too narrow for every action on one row, the
 * actions used least (Queue again from an export and Remove from the board; in a narrower one
 * also Add to board and Re-run) are the buttons of a panel this toggle shows under it, so the
 * toolbar stays one row (the window-fit tests measure it at 800 x 600 and 1280 x 800). A
 * disclosure (MenuDisclosure), as the Board filter's options are.
 */
import type { ReactNode } from 'react';
import { MenuDisclosure } from '../../components/MenuDisclosure.tsx';

/** Which actions go into "More" for a library this wide (its summary row's width in pixels). */
export type SelectionOverflow = 'none' | 'rare' | 'most';

/** Widths measured at the toolbar's short labels (gallery.css), with Compare shown. */
export function selectionOverflowAt(width: number): SelectionOverflow {
  if (width === 0 || width >= 1100) return 'none';
  return width >= 860 ? 'rare' : 'most';
}

export function SelectionMore({ children }: { children: ReactNode }) {
  return (
    <MenuDisclosure
      label={
        <>
          More<span aria-hidden="true"> ▾</span>
        </>
      }
      className="selection-more"
      panelClassName="selection-more-panel"
      testId="selection-more"
    >
      {children}
    </MenuDisclosure>
  );
}
