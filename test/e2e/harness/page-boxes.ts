/**
 * Where things sit on the page, for the layout tests: an element's box, the shown elements of a
 * list with theirs, whether one box lies inside another (half a pixel of rounding allowed), and switching the shown theme in place (the
 * root's data-theme, without saving the setting) to check or picture both themes on one page.
 */
import type { Locator, Page } from '@playwright/test';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box on the page; throws when it is not shown. */
export async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('no box: the element is not shown');
  return found;
}

/** A shown element: its box, its text, the start of its markup, and whether its content is cut. */
export interface ShownPiece {
  box: Box;
  text: string;
  html: string;
  /** Its content is wider than its box (a label cut short). */
  cut: boolean;
}

/** The elements `locator` matches that are shown (checkVisibility), in the page's order. */
export function shownPieces(locator: Locator): Promise<ShownPiece[]> {
  return locator.evaluateAll((els) =>
    els
      .map(
        (el) =>
          el as unknown as {
            checkVisibility(): boolean;
            getBoundingClientRect(): Box;
            scrollWidth: number;
            clientWidth: number;
            textContent: string;
            outerHTML: string;
          },
      )
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const { x, y, width, height } = el.getBoundingClientRect();
        return {
          box: { x, y, width, height },
          text: el.textContent,
          html: el.outerHTML.slice(0, 60),
          cut: el.scrollWidth > el.clientWidth + 1,
        };
      }),
  );
}

export function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

/** Shows the page in a theme by setting the root's data-theme (the setting is left as it is). */
export async function setTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  await page.evaluate((t) => {
    (
      globalThis as unknown as { document: { documentElement: { dataset: Record<string, string> } } }
    ).document.documentElement.dataset.theme = t;
  }, theme);
}

/** Runs `use` with the shown theme set to light, then dark, and leaves it light again. */
export async function inEachTheme(
  page: Page,
  use: (theme: 'light' | 'dark') => Promise<void>,
): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(page, theme);
    await use(theme);
  }
  await setTheme(page, 'light');
}
