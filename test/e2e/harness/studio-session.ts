/**
 * The set-up every browser test file shares: Chromium and a studio rig started together, the
 * app opened in a page and loaded, and everything closed at the end (printing any console or
 * page errors a page still open showed, so a failure explains itself).
 *
 * `openStudio` does all of it for the describe block it is called in, around the block's tests;
 * `startStudio`, `openApp` and `stopStudio` are its steps, for a file that needs them apart.
 */
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './chromium-location.ts';
import { createStudioRig, type RigOptions, type StudioPage, type StudioRig } from './studio-rig.ts';
import { waitForApp } from './studio-ui.ts';
import { rendererDir } from './suite-setup.ts';

export interface StudioSession {
  browser: Browser;
  rig: StudioRig;
}

/** A started studio with the app loaded in a page. */
export interface OpenStudio extends StudioSession {
  view: StudioPage;
}

export type AppPageOptions = Parameters<StudioRig['openPage']>[1];

export interface StudioSetUp extends Omit<RigOptions, 'rendererDir'> {
  /** Run on the started rig before the app opens: the tasks the tests need in the library. */
  prepare?: (rig: StudioRig) => Promise<void>;
  /** The app page's options (1280 x 800 by default); `false`: no page, the tests open their own. */
  page?: AppPageOptions | false;
}

export async function startStudio(options: Omit<RigOptions, 'rendererDir'>): Promise<StudioSession> {
  const [browser, rig] = await Promise.all([
    launchChromium(),
    createStudioRig({ rendererDir: rendererDir(), ...options }),
  ]);
  return { browser, rig };
}

/** Opens the app in a fresh page and waits until it has loaded. */
export async function openApp(session: StudioSession, options?: AppPageOptions): Promise<StudioPage> {
  const view = await session.rig.openPage(session.browser, options);
  await waitForApp(view.page);
  return view;
}

/** Closes the rig and the browser, first printing the errors of `view` and of every page still open. */
export async function stopStudio(session: Partial<StudioSession>, view?: StudioPage): Promise<void> {
  const pages = new Set([...(view ? [view] : []), ...(session.rig?.openPages() ?? [])]);
  for (const page of pages) {
    if (page.problems.length) console.log(`page problems:\n  ${page.problems.join('\n  ')}`);
  }
  await session.rig?.close();
  await session.browser?.close();
}

/**
 * For the describe block it is called in: before the block's tests, starts Chromium and a rig,
 * runs `prepare`, opens the app (unless `page: false`) and hands them to `receive` (awaited, so
 * it can also finish the set-up in the page); after the tests, `stopStudio`.
 */
export function openStudio(
  setUp: StudioSetUp & { page: false },
  receive: (studio: StudioSession) => void | Promise<void>,
): void;
export function openStudio(setUp: StudioSetUp, receive: (studio: OpenStudio) => void | Promise<void>): void;
export function openStudio(setUp: StudioSetUp, receive: (studio: OpenStudio) => void | Promise<void>): void {
  const { prepare, page, ...rigOptions } = setUp;
  let session: Partial<StudioSession> = {};
  beforeAll(async () => {
    session = await startStudio(rigOptions);
    const started = session as StudioSession;
    await prepare?.(started.rig);
    if (page === false) await (receive as (studio: StudioSession) => void | Promise<void>)(started);
    else await receive({ ...started, view: await openApp(started, page) });
  });
  afterAll(() => stopStudio(session));
}
