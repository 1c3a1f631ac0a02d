/**
 * Vitest global setup of the e2e project: builds the renderer once for all e2e files (when a
 * Chromium exists to run them) and hands the result to the tests via `inject('renderer')`.
 * A failed build does not stop the harness's own tests; the app's tests fail with its message.
 */
import type { TestProject } from 'vitest/node';
import { findChromium, NO_BROWSER_MESSAGE } from './chromium-location.ts';
import { ensureRendererBuilt } from './renderer-build.ts';

export interface RendererBuildResult {
  /** The built renderer's folder; '' when there is none. */
  dir: string;
  /** Why there is no build (no browser, or the build failed); null when built. */
  problem: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    renderer: RendererBuildResult;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  if (!findChromium()) {
    console.log(NO_BROWSER_MESSAGE);
    project.provide('renderer', { dir: '', problem: NO_BROWSER_MESSAGE });
    return;
  }
  try {
    project.provide('renderer', { dir: await ensureRendererBuilt(), problem: null });
  } catch (err) {
    const problem = `the renderer could not be built: ${(err as Error).message}`;
    console.log(problem);
    project.provide('renderer', { dir: '', problem });
  }
}
