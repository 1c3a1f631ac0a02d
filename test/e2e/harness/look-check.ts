/**
 * How the look tests check a screen: axe-core on each screen a test walks through, sorted into
 * blocking (serious and critical, plus rules a test names) and the rest, which are printed; and
 * pictures of the same screens in both themes for a person to look at.
 */
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { StudioRig } from './studio-rig.ts';
import { type AxeViolation, describeViolations, runAxe, waitForApp } from './studio-ui.ts';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The window sizes the look tests take pictures at. */
export const SHOT_SIZES = [
  { name: '800x600', width: 800, height: 600 },
  { name: '1920x1080', width: 1920, height: 1080 },
] as const;

/**
 * The sizes of the look tests' "takes pictures" steps: none unless pictures were asked for
 * (`npm run shots`, SHOTS=1). The pictures are for a person to look at and assert nothing; the
 * same screens are walked and checked by axe in every run.
 */
export const PICTURE_SIZES: readonly (typeof SHOT_SIZES)[number][] =
  process.env.SHOTS === '1' ? SHOT_SIZES : [];

/** Walks a page through its screens, calling `at` with each screen's name once it shows. */
export type ScreenWalk = (page: Page, at: (where: string) => Promise<void>) => Promise<void>;

/** What axe found over one or more screens. */
export interface AxeFindings {
  blocking: string[];
  others: string[];
}

const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

export function axeFindings(): AxeFindings {
  return { blocking: [], others: [] };
}

/** Runs axe on the page and files its violations under `where`; rules in `alsoBlocking` block at any impact. */
export async function checkAxe(
  page: Page,
  where: string,
  findings: AxeFindings,
  alsoBlocking: ReadonlySet<string> = new Set(),
): Promise<void> {
  const violations: AxeViolation[] = await runAxe(page);
  const bad = violations.filter(
    (v) => (v.impact !== null && BLOCKING_IMPACTS.has(v.impact)) || alsoBlocking.has(v.id),
  );
  if (bad.length) findings.blocking.push(describeViolations(where, bad));
  const rest = violations.filter((v) => !bad.includes(v));
  if (rest.length) findings.others.push(describeViolations(where, rest));
}

/** Prints the minor and moderate findings, if there are any, after `label`. */
export function printMinor(findings: AxeFindings, label: string): void {
  if (findings.others.length) console.log(`${label}, minor and moderate:\n${findings.others.join('\n')}`);
}

/** Sets the theme, opens the app in it (1280 x 800 unless a viewport is given), waits for it, runs `use` and closes the page. */
export async function inTheme(
  rig: StudioRig,
  browser: Browser,
  theme: Theme,
  use: (page: Page) => Promise<void>,
  viewport?: { width: number; height: number },
): Promise<void> {
  await rig.call('settings.update', { theme });
  const view = await rig.openPage(browser, { colorScheme: theme, ...(viewport ? { viewport } : {}) });
  try {
    await waitForApp(view.page);
    await use(view.page);
  } finally {
    await view.close();
  }
}

export interface AxeWalkOptions {
  /** The window size; 1280 x 800 by default. */
  viewport?: { width: number; height: number };
  /** What each screen's name is filed under (`<label> / <where>`); the theme by default. */
  label?: string;
  /** Rules that block at any impact. */
  alsoBlocking?: ReadonlySet<string>;
  /** Run on each screen before axe, with its filed name (a picture of it). */
  onScreen?: (page: Page, where: string) => Promise<void>;
}

/**
 * Runs axe on each screen of the walk in the theme (as `<theme> / <where>` unless a label is
 * given), prints the minor findings and returns all.
 */
export async function axeInTheme(
  rig: StudioRig,
  browser: Browser,
  theme: Theme,
  walk: ScreenWalk,
  options: AxeWalkOptions = {},
): Promise<AxeFindings> {
  const findings = axeFindings();
  const label = options.label ?? theme;
  const check = async (page: Page, where: string) => {
    await options.onScreen?.(page, `${label} / ${where}`);
    await checkAxe(page, `${label} / ${where}`, findings, options.alsoBlocking);
  };
  await inTheme(rig, browser, theme, (page) => walk(page, (where) => check(page, where)), options.viewport);
  printMinor(findings, `axe (${label})`);
  return findings;
}

/** `inTheme` at each of SHOT_SIZES in turn; `use` is told the size. */
export async function inThemeAtEachSize(
  rig: StudioRig,
  browser: Browser,
  theme: Theme,
  use: (page: Page, size: (typeof SHOT_SIZES)[number]) => Promise<void>,
): Promise<void> {
  for (const size of SHOT_SIZES) {
    await inTheme(rig, browser, theme, (page) => use(page, size), { width: size.width, height: size.height });
  }
}

/** Takes a picture of each screen of the walk at the size in both themes, as `<where>-<size>-<theme>.png` in `dir`. */
export async function shootInThemes(
  rig: StudioRig,
  browser: Browser,
  size: (typeof SHOT_SIZES)[number],
  dir: string,
  walk: ScreenWalk,
): Promise<void> {
  const viewport = { width: size.width, height: size.height };
  for (const theme of THEMES) {
    const shoot = async (page: Page, where: string) => {
      await page.screenshot({ path: join(dir, `${where}-${size.name}-${theme}.png`) });
    };
    await inTheme(rig, browser, theme, (page) => walk(page, (where) => shoot(page, where)), viewport);
  }
}

/** The serious and critical violations axe finds on the page as it is now. */
export async function blockingViolations(page: Page): Promise<AxeViolation[]> {
  return (await runAxe(page)).filter((v) => v.impact !== null && BLOCKING_IMPACTS.has(v.impact));
}
