/**
 * What the e2e tests do in the app, named the way a user would say it (open the library, put a
 * file in a slot, queue), on the labels and test ids the renderer lists at the top of
 * src/renderer/src/App.tsx. Only UI actions: no shortcut through the bridge.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { waitUntil } from '../../support/wait-until.ts';
import { dropFiles, type LocalFile } from './file-drop.ts';

export type StudioView = 'compose' | 'activity' | 'library' | 'history' | 'settings';
export type ComposeTabName =
  | 'Song'
  | 'Face swap'
  | 'Image edit'
  | 'Picture tools'
  | 'Image'
  | 'Video'
  | '3D'
  | 'From a result'
  | 'Other';

const HEADINGS: Record<StudioView, string> = {
  compose: 'Compose',
  activity: 'Activity',
  library: 'Library',
  history: 'Account history',
  settings: 'Settings',
};

/** Waits until the app has started (navigation shown, settings loaded). */
export async function waitForApp(page: Page): Promise<void> {
  await page.getByTestId('nav-compose').waitFor();
  await page.locator('main#main h1').first().waitFor();
}

export async function openView(page: Page, view: StudioView): Promise<void> {
  await page.getByTestId(`nav-${view}`).click();
  await page.getByRole('heading', { level: 1, name: HEADINGS[view], exact: true }).waitFor();
}

/** Opens the Library and waits until it shows `count` task cards. */
export async function openLibraryWith(page: Page, count: number): Promise<void> {
  await openView(page, 'library');
  const cards = page.getByTestId('task-card');
  await waitUntil(async () => (await cards.count()) === count, `${count} cards in the library`);
}

export async function openComposeTab(page: Page, tab: ComposeTabName): Promise<Locator> {
  await openView(page, 'compose');
  await page.getByRole('tab', { name: tab, exact: true }).click();
  const panel = page.getByRole('tabpanel');
  await panel.waitFor();
  return panel;
}

export function slot(page: Page, field: string): Locator {
  return page.locator(`[data-testid="media-slot"][data-field="${field}"]`);
}

/** Drops local files on a media slot and waits for its check to finish (ok or bad). */
export async function dropOnSlot(page: Page, field: string, file: LocalFile): Promise<Locator> {
  const target = slot(page, field);
  await dropFiles(page, target.getByTestId('drop-zone'), [file]);
  await waitForSlotChecked(target);
  return target;
}

export async function waitForSlotChecked(target: Locator): Promise<void> {
  await target.and(target.page().locator('[data-status="ok"], [data-status="bad"]')).waitFor();
}

/** Types a URL into a slot's URL box and uses it. */
export async function useUrlOnSlot(page: Page, field: string, label: string, url: string): Promise<Locator> {
  const target = slot(page, field);
  await target.getByLabel(`${label} URL`).fill(url);
  await target.getByRole('button', { name: 'Use URL' }).click();
  await waitForSlotChecked(target);
  return target;
}

export function queueButton(page: Page): Locator {
  return page.getByRole('button', { name: 'Queue', exact: true });
}

/** Clicks Queue and waits for the composer to finish queueing. */
export async function queue(page: Page): Promise<void> {
  await queueButton(page).click();
  await page.getByRole('button', { name: 'Queueing…' }).waitFor({ state: 'detached' });
}

/** The library selection toolbar's Clear selection (the toolbar's own button, shown while cards are ticked). */
export function clearSelectionButton(page: Page): Locator {
  return page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Clear selection' });
}

/** Whether `target` has the keyboard focus (a dialog or panel closed gives it back to its opener). */
export function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate(
    (el) =>
      el === (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement,
  );
}

export function activityRow(page: Page, taskId: string): Locator {
  return page.locator(`[data-testid="activity-row"][data-task-id="${taskId}"]`);
}

export function card(page: Page, taskId: string): Locator {
  return page.locator(`[data-testid="task-card"][data-task-id="${taskId}"]`);
}

/** Fills the song form: style prompt, lyrics and duration. */
export async function fillSong(
  page: Page,
  song: { style: string; lyrics?: string; seconds?: number },
): Promise<void> {
  await openComposeTab(page, 'Song');
  await page.getByLabel('Style prompt', { exact: true }).fill(song.style);
  if (song.lyrics !== undefined) await page.getByLabel('Lyrics', { exact: false }).first().fill(song.lyrics);
  if (song.seconds !== undefined) await page.getByLabel('Duration in seconds').fill(String(song.seconds));
}

// ---------- media element tracking (test instrumentation) ----------

/**
 * Records every audio/video element the page plays, including ones never attached to the
 * document (wavesurfer keeps its <audio> detached), in `window.__playedMedia`, so a test can read
 * the real element's currentTime. Test instrumentation only: it wraps HTMLMediaElement.play.
 */
export async function trackPlayedMedia(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const win = globalThis as unknown as {
      __playedMedia: unknown[];
      HTMLMediaElement: { prototype: { play(this: unknown): Promise<void> } };
    };
    win.__playedMedia = [];
    const proto = win.HTMLMediaElement.prototype;
    const play = proto.play;
    proto.play = function (this: unknown) {
      if (!win.__playedMedia.includes(this)) win.__playedMedia.push(this);
      return play.call(this);
    };
  });
}

/** currentTime and state of the last played media element, or null when none played yet. */
export function playedMediaState(
  page: Page,
): Promise<{ currentTime: number; paused: boolean; src: string } | null> {
  return page.evaluate(() => {
    const list = (
      globalThis as unknown as {
        __playedMedia?: { currentTime: number; paused: boolean; currentSrc: string }[];
      }
    ).__playedMedia;
    const media = list?.[list.length - 1];
    return media ? { currentTime: media.currentTime, paused: media.paused, src: media.currentSrc } : null;
  });
}

// ---------- accessibility ----------

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

let axeSource: string | null = null;

/** Runs axe-core (WCAG 2.x A/AA rules and best practices) on the page and returns its violations. */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  if (!axeSource) {
    const require = createRequire(import.meta.url);
    axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  }
  const loaded = await page.evaluate(
    () => typeof (globalThis as unknown as { axe?: unknown }).axe !== 'undefined',
  );
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') rightly refuses an
  // inline <script>, and the page keeps its real CSP during the checks.
  if (!loaded) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, {
      resultTypes: ['violations'],
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
}

export function describeViolations(where: string, violations: readonly AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${where}: [${v.impact}] ${v.id}: ${v.help}\n${v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
          )
          .join('\n')}`,
    )
    .join('\n');
}
