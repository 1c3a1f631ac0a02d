/**
 * Vitest global setup of the e2e project: builds the renderer once for all e2e files (when a
 * Chromium exists to run them) and hands the result to the tests via `inject('renderer')`; and
 * starts the run's one Chromium, whose address the files get via `inject('chromiumEndpoint')`
 * (each file connects to it, and its pages live in contexts of their own). A failed build does
 * not stop the harness's own tests; the app's tests fail with its message.
 */
import type { TestProject } from 'vitest/node';
import { findChromium, launchChromiumServer, NO_BROWSER_MESSAGE } from './chromium-location.ts';
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
    /** The run's Chromium to connect to; '' when there is none (each file launches its own). */
    chromiumEndpoint: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide('chromiumEndpoint', '');
  if (!findChromium()) {
    console.log(NO_BROWSER_MESSAGE);
    project.provide('renderer', { dir: '', problem: NO_BROWSER_MESSAGE });
    return;
  }
  const [built, server] = await Promise.allSettled([ensureRendererBuilt(), launchChromiumServer()]);
  if (built.status === 'fulfilled') project.provide('renderer', { dir: built.value, problem: null });
  else {
    const problem = `the renderer could not be built: ${(built.reason as Error).message}`;
    console.log(problem);
    project.provide('renderer', { dir: '', problem });
  }
  if (server.status === 'rejected') {
    console.log(
      `e2e: the shared Chromium did not start (${(server.reason as Error).message}); each file launches its own`,
    );
    return;
  }
  project.provide('chromiumEndpoint', server.value.wsEndpoint());
  return () => server.value.close();
}
