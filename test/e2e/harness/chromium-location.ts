/**
 * Where the e2e tests and UI benchmarks find a Chromium, and how they launch it. Never
 * downloads a browser: Debian's `/usr/bin/chromium` first (Linux CI), then a browser that
 * Playwright already installed (`npx playwright install chromium` on a developer machine).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from '@playwright/test';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export const NO_BROWSER_MESSAGE = `e2e skipped: no Chromium at ${DEBIAN_CHROMIUM} and no Playwright browser installed`;

/** Flags for a quiet, reproducible headless Chromium on a shared CI machine. */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * The Chromium executable to use, or null when there is none on this machine.
 * `E2E_CHROMIUM=/path/to/chrome` picks another one; `E2E_CHROMIUM=none` behaves as if there were none.
 */
export function findChromium(): string | null {
  const chosen = process.env.E2E_CHROMIUM;
  if (chosen === 'none') return null;
  if (chosen) return existsSync(chosen) ? chosen : null;
  if (existsSync(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // Playwright has no browser registered for this platform.
  }
  return null;
}

/**
 * Launches headless Chromium. Playwright's `launch` gives the browser a fresh temporary
 * user-data dir of its own and deletes it on close, so no state leaks between runs; each test
 * opens its own context (its own storage) with `browser.newContext()`. `extraArgs` are added to
 * CHROMIUM_ARGS (the benchmarks use this for frame-pacing flags, and say so).
 */
export async function launchChromium(options: { extraArgs?: readonly string[] } = {}): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(NO_BROWSER_MESSAGE);
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.extraArgs ?? [])],
  });
}
