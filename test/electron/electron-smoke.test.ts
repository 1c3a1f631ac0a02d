/**
 * Launches the real app with Playwright's `_electron` where the Electron binary exists (a
 * user's machine, or CI that downloaded it) and checks the shell: one window, the bridge
 * present and Node absent in the page, and the first run in demo mode. Finding the binary never
 * triggers a download: it reads node_modules/electron/path.txt and looks under dist/ (a plain
 * `require('electron')` may download it). Skipped, saying so plainly, when it is absent.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const electronDir = join(root, 'node_modules', 'electron');

function electronBinary(): string | null {
  try {
    const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const binary = join(electronDir, 'dist', relative);
    return relative !== '' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
const skipReason =
  binary === null
    ? 'Electron binary not downloaded (node_modules/electron/dist missing)'
    : noDisplay
      ? 'no display to open a window on (DISPLAY and WAYLAND_DISPLAY unset)'
      : null;
if (skipReason) console.log(`electron smoke test skipped: ${skipReason}`);

function ensureBuilt(): void {
  const built = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].every((f) =>
    existsSync(join(root, f)),
  );
  if (!built) execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'inherit' });
}

describe('the desktop app', () => {
  it.skipIf(skipReason !== null)(
    'opens one sandboxed window with the bridge and offers demo mode on the first run',
    async () => {
      ensureBuilt();
      const userData = await mkdtemp(join(tmpdir(), 'mts-electron-'));
      const env = { ...process.env };
      delete env.ELECTRON_RENDERER_URL;
      delete env.ELECTRON_RUN_AS_NODE;
      const app = await _electron.launch({
        executablePath: binary as string,
        args: [root, `--user-data-dir=${userData}`],
        cwd: root,
        env: env as Record<string, string>,
        timeout: 60_000,
      });
      try {
        const page = await app.firstWindow();
        await page.waitForLoadState('domcontentloaded');
        const globals = await page.evaluate(() => {
          const w = globalThis as unknown as Record<string, unknown>;
          return { studio: typeof w.studio, require: typeof w.require, process: typeof w.process };
        });
        expect(globals).toEqual({ studio: 'object', require: 'undefined', process: 'undefined' });
        const firstRun = await page.evaluate(async () => {
          const studio = (
            globalThis as unknown as { studio: { invoke(n: string, a: unknown): Promise<unknown> } }
          ).studio;
          const settings = (await studio.invoke('settings.get', {})) as {
            firstRun: boolean;
            hasApiKey: boolean;
          };
          const status = (await studio.invoke('engine.status', {})) as { service: string };
          return { firstRun: settings.firstRun, hasApiKey: settings.hasApiKey, service: status.service };
        });
        expect(firstRun).toEqual({ firstRun: true, hasApiKey: false, service: 'sandbox' });
        await expect
          .poll(async () => page.getByText(/demo/i).first().isVisible(), { timeout: 20_000 })
          .toBe(true);
        expect(app.windows()).toHaveLength(1);
      } finally {
        await app.close();
        await rm(userData, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
