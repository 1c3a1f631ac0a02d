/**
 * The set-up every browser test file shares: Chromium and a studio rig started together, the
 * app opened in a page and loaded, and everything closed at the end (printing any console or
 * page errors the page showed, so a failure explains itself).
 */
import type { Browser } from '@playwright/test';
import { launchChromium } from './chromium-location.ts';
import { createStudioRig, type RigOptions, type StudioPage, type StudioRig } from './studio-rig.ts';
import { waitForApp } from './studio-ui.ts';
import { rendererDir } from './suite-setup.ts';

export interface StudioSession {
  browser: Browser;
  rig: StudioRig;
}

export async function startStudio(options: Omit<RigOptions, 'rendererDir'>): Promise<StudioSession> {
  const [browser, rig] = await Promise.all([
    launchChromium(),
    createStudioRig({ rendererDir: rendererDir(), ...options }),
  ]);
  return { browser, rig };
}

/** Opens the app in a fresh page and waits until it has loaded. */
export async function openApp(
  session: StudioSession,
  options?: Parameters<StudioRig['openPage']>[1],
): Promise<StudioPage> {
  const view = await session.rig.openPage(session.browser, options);
  await waitForApp(view.page);
  return view;
}

export async function stopStudio(session: Partial<StudioSession>, view?: StudioPage): Promise<void> {
  if (view?.problems.length) console.log(`page problems:\n  ${view.problems.join('\n  ')}`);
  await session.rig?.close();
  await session.browser?.close();
}
