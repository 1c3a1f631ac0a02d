/**
 * Builds the React renderer once with Vite (the same app Electron loads) into
 * `out/e2e-renderer`, for the e2e tests and the UI benchmarks. A build is reused while no file
 * under `src/renderer` or `src/shared` is newer than it; `E2E_REBUILD=1` forces a new one. A new
 * build keeps the recent chunks of the one it replaces (carryOverAssets).
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const RENDERER_ROOT = join(REPO_ROOT, 'src/renderer');
export const RENDERER_OUT_DIR = join(REPO_ROOT, 'out/e2e-renderer');
const SOURCE_DIRS = [RENDERER_ROOT, join(REPO_ROOT, 'src/shared')];
const STAMP_FILE = '.e2e-build-stamp';

/** Newest modification time (ms) of any file under `dir`. */
function newestMtime(dir: string): number {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** Bump when the build options change, so an older build is not reused. */
const BUILD_OPTIONS_VERSION = 2;

function sourceStamp(): string {
  return `${BUILD_OPTIONS_VERSION}:${Math.max(...SOURCE_DIRS.map(newestMtime))}`;
}

function buildIsFresh(stamp: string): boolean {
  const file = join(RENDERER_OUT_DIR, STAMP_FILE);
  return (
    existsSync(join(RENDERER_OUT_DIR, 'index.html')) &&
    existsSync(file) &&
    readFileSync(file, 'utf8') === stamp
  );
}

/** How long the chunks of a replaced build stay servable (a run that started on it may still load them). */
export const KEEP_REPLACED_ASSETS_MS = 2 * 60 * 60 * 1000;

/**
 * Links the files of the served build's `assets` folder into the new build's (`to`) where the new
 * build has no file of that name and the file is newer than KEEP_REPLACED_ASSETS_MS. Asset names
 * carry their content's hash, so nothing of the new build is replaced: a page of a run that
 * started on the old build (other runs share this machine and rebuild when the sources change)
 * can still load its lazy chunks, such as the 3D viewer's, instead of failing to fetch them.
 */
export function carryOverAssets(from: string, to: string, nowMs: number): void {
  if (!existsSync(from) || !existsSync(to)) return;
  for (const name of readdirSync(from)) {
    const source = join(from, name);
    const target = join(to, name);
    if (existsSync(target)) continue;
    const info = statSync(source);
    if (!info.isFile() || nowMs - info.mtimeMs > KEEP_REPLACED_ASSETS_MS) continue;
    try {
      linkSync(source, target);
    } catch {
      copyFileSync(source, target);
      utimesSync(target, info.atime, info.mtime);
    }
  }
}

/** True when the renderer's sources exist (another worker may not have written them yet). */
export function rendererSourcesExist(): boolean {
  return existsSync(join(RENDERER_ROOT, 'index.html'));
}

/**
 * Builds the renderer unless a fresh build exists, and returns the folder to serve.
 * Throws with Vite's message when the build fails.
 */
export async function ensureRendererBuilt(options: { force?: boolean; log?: (line: string) => void } = {}) {
  const log = options.log ?? ((line: string) => console.log(line));
  if (!rendererSourcesExist())
    throw new Error(`no renderer to build: ${join(RENDERER_ROOT, 'index.html')} is missing`);
  const stamp = sourceStamp();
  if (!options.force && process.env.E2E_REBUILD !== '1' && buildIsFresh(stamp)) {
    log(`renderer: reusing the build in ${RENDERER_OUT_DIR}`);
    return RENDERER_OUT_DIR;
  }
  const started = Date.now();
  const [{ build }, { default: react }] = await Promise.all([import('vite'), import('@vitejs/plugin-react')]);
  // A production build, as the app ships: Vite (and the React plugin) take the mode from
  // NODE_ENV when it is set, and vitest sets it to `test`, which would give React's development
  // build (jsxDEV, extra checks: several times slower). So NODE_ENV is `production` during the build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  // Built beside the served folder and swapped in, so a test run already serving the old build
  // (other runs share this machine) never sees a half-written one.
  const staging = `${RENDERER_OUT_DIR}.building-${process.pid}`;
  try {
    await build({
      mode: 'production',
      root: RENDERER_ROOT,
      base: './',
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: {
        outDir: staging,
        emptyOutDir: true,
        sourcemap: true,
        reportCompressedSize: false,
        chunkSizeWarningLimit: 4_000,
      },
    });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  writeFileSync(join(staging, STAMP_FILE), stamp);
  carryOverAssets(join(RENDERER_OUT_DIR, 'assets'), join(staging, 'assets'), Date.now());
  const retired = `${RENDERER_OUT_DIR}.old-${process.pid}`;
  if (existsSync(RENDERER_OUT_DIR)) renameSync(RENDERER_OUT_DIR, retired);
  renameSync(staging, RENDERER_OUT_DIR);
  rmSync(retired, { recursive: true, force: true });
  log(`renderer: built into ${RENDERER_OUT_DIR} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return RENDERER_OUT_DIR;
}
