/**
 * What every app e2e file starts with: whether a browser exists (the suite skips, saying so,
 * when not), and the renderer build made by the global setup.
 */
import { inject } from 'vitest';
import { findChromium, NO_BROWSER_MESSAGE } from './chromium-location.ts';

/** True when a Chromium is available; otherwise prints the skip message once per file. */
export function browserAvailable(): boolean {
  const found = findChromium() !== null;
  if (!found) console.log(NO_BROWSER_MESSAGE);
  return found;
}

/** The built renderer's folder; throws with the build problem when there is none. */
export function rendererDir(): string {
  const renderer = inject('renderer');
  if (!renderer.dir) throw new Error(renderer.problem ?? 'the renderer was not built');
  return renderer.dir;
}
