/**
 * What every app e2e file starts with: whether a browser exists (the suite skips, saying so,
 * when not), the run's browser and the renderer build made by the global setup.
 */
import type { Browser } from '@playwright/test';
import { inject } from 'vitest';
import { connectChromium, findChromium, NO_BROWSER_MESSAGE } from './chromium-location.ts';

/** True when a Chromium is available; otherwise prints the skip message once per file. */
export function browserAvailable(): boolean {
  const found = findChromium() !== null;
  if (!found) console.log(NO_BROWSER_MESSAGE);
  return found;
}

/** The run's one Chromium (started by the global setup), or a browser of its own when there is none. */
export function openBrowser(): Promise<Browser> {
  return connectChromium(inject('chromiumEndpoint') ?? '');
}

/** The built renderer's folder; throws with the build problem when there is none. */
export function rendererDir(): string {
  const renderer = inject('renderer');
  if (!renderer.dir) throw new Error(renderer.problem ?? 'the renderer was not built');
  return renderer.dir;
}
