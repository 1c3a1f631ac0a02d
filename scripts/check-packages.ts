/**
 * `npm run check:packages`: builds the Linux x64 and arm64 app folders with electron-builder's
 * `dir` target (no installer tools) around a stand-in Electron folder (no download), then checks
 * each one (package-contents.ts): no native code, no devDependencies, the renderer, preload, main
 * bundle and worker present, and sharp's wasm32 build loading from the package and thumbnailing.
 *
 * Usage: node scripts/check-packages.ts [--no-build]   (--no-build reuses the current out/)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Arch, build, Platform } from 'electron-builder';
import { checkAppFolder, type FolderReport } from './package-contents.ts';

const PROJECT_DIR = join(import.meta.dirname, '..');
/** `linux.executableName` in electron-builder.yml. */
const EXECUTABLE = 'media-task-studio';

/**
 * A folder shaped like an unpacked Electron for Linux, as electron-builder copies it for the
 * `dir` target: the `electron` executable (renamed to the app's executableName), `resources/`
 * (where app.asar goes; no default_app.asar: electron-builder hashes every .asar there for the
 * integrity check, and an empty file has no header), `locales/`, the licence files and `version`.
 */
export function makeStandInElectron(dir: string, version: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho "stand-in Electron: not runnable" >&2\nexit 1\n');
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'locales', 'en-US.pak'), '');
  writeFileSync(join(dir, 'LICENSE'), 'stand-in');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), 'stand-in');
  writeFileSync(join(dir, 'version'), version);
  return dir;
}

function installedElectronVersion(): string {
  const pkg = JSON.parse(readFileSync(join(PROJECT_DIR, 'node_modules/electron/package.json'), 'utf8'));
  return (pkg as { version: string }).version;
}

/** `electron-vite build`: the out/ folder electron-builder packages. */
function buildApp(): void {
  const run = spawnSync('npx', ['electron-vite', 'build'], { cwd: PROJECT_DIR, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`electron-vite build failed (exit ${run.status})`);
}

/**
 * Runs electron-builder for linux `dir` x64 and arm64 into `outputDir`. Overrides for the
 * check only: the stand-in Electron; no fuses (they are flipped in the real Electron binary,
 * which the stand-in is not); no npm rebuild (it would fetch the other architecture's native
 * packages, which the app excludes anyway).
 */
async function packageLinuxFolders(electronDist: string, outputDir: string): Promise<void> {
  await build({
    projectDir: PROJECT_DIR,
    targets: Platform.LINUX.createTarget('dir', Arch.x64, Arch.arm64),
    publish: 'never',
    config: {
      extends: null,
      electronDist,
      electronVersion: installedElectronVersion(),
      electronFuses: null,
      npmRebuild: false,
      directories: { output: outputDir, buildResources: 'resources' },
    },
  });
}

export interface CheckReport {
  folders: FolderReport[];
  seconds: number;
}

/** Builds (unless `skipBuild`), packages and checks both Linux folders in a temporary folder. */
export async function checkPackages(skipBuild = false): Promise<CheckReport> {
  const started = performance.now();
  if (!skipBuild) buildApp();
  const work = mkdtempSync(join(tmpdir(), 'check-packages-'));
  try {
    const electronDist = makeStandInElectron(join(work, 'electron'), installedElectronVersion());
    const outputDir = join(work, 'dist');
    await packageLinuxFolders(electronDist, outputDir);
    const folders = [
      ['linux-unpacked', 'x64'],
      ['linux-arm64-unpacked', 'arm64'],
    ].map(([folder, arch]) =>
      checkAppFolder(PROJECT_DIR, join(outputDir, folder!), EXECUTABLE, join(work, `asar-${arch}`)),
    );
    return { folders, seconds: (performance.now() - started) / 1000 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Prints each folder's result; exit code 1 when any has a problem. */
async function main(): Promise<void> {
  const report = await checkPackages(process.argv.includes('--no-build'));
  for (const folder of report.folders) {
    const name = folder.folder.split(/[\\/]/).at(-1);
    console.log(`${name}: ${folder.files} files in app.asar, ${folder.problems.length} problem(s)`);
    for (const problem of folder.problems) console.log(`  - ${problem}`);
  }
  console.log(`check:packages took ${report.seconds.toFixed(1)} s`);
  if (report.folders.some((f) => f.problems.length > 0)) process.exitCode = 1;
}

if (import.meta.main) await main();
