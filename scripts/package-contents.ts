/**
 * Checks of one unpacked app folder made by electron-builder's `dir` target (check-packages.ts):
 * what app.asar holds, and that sharp loads from it on this machine and makes a thumbnail.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { extractAll } from '@electron/asar';

/** Files of the built app (relative to the project) that every package must hold. */
const REQUIRED_APP_FILES = [
  'package.json',
  'out/renderer/index.html',
  'out/preload/index.cjs',
  'out/main/index.js',
  'out/main/generation-worker.js',
];

/** Native code by its name: addons and shared libraries of every OS. */
const NATIVE_FILE = /\.(node|so(\.\d+)*|dylib|dll|exe)$/;

/** Every file under `dir`, relative to it, with forward slashes. */
export function listFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  walk(dir);
  return files.sort();
}

/** Packages the app must not hold: the devDependencies and what only they need at the top level. */
function devDependencyNames(projectDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as {
    devDependencies?: Record<string, string>;
  };
  return Object.keys(pkg.devDependencies ?? {});
}

/** Files of the local build (out/main, out/preload, out/renderer; no source maps); none before a build. */
function builtFiles(projectDir: string): string[] {
  if (!existsSync(join(projectDir, 'out'))) return [];
  return listFiles(join(projectDir, 'out'))
    .filter((file) => /^(main|preload|renderer)\//.test(file) && !file.endsWith('.map'))
    .map((file) => `out/${file}`);
}

/** Problems with the files of an extracted app.asar. */
export function contentProblems(projectDir: string, appFiles: string[]): string[] {
  const problems: string[] = [];
  const present = new Set(appFiles);
  for (const file of [...REQUIRED_APP_FILES, ...builtFiles(projectDir)]) {
    if (!present.has(file)) problems.push(`missing ${file}`);
  }
  for (const file of appFiles.filter((f) => NATIVE_FILE.test(f))) problems.push(`native file ${file}`);
  // out/ also holds what tests and benchmarks build (the browser tests' renderer, a benchmark's
  // library cache): only the app's own three builds belong in a package
  for (const file of appFiles.filter(
    (f) => f.startsWith('out/') && !/^out\/(main|preload|renderer)\//.test(f),
  )) {
    problems.push(`not part of the app's build ${file}`);
  }
  for (const file of appFiles.filter((f) => /node_modules\/@img\/sharp-(?!wasm32\/)/.test(f))) {
    problems.push(`native sharp package file ${file}`);
  }
  for (const name of devDependencyNames(projectDir)) {
    if (appFiles.some((f) => f.startsWith(`node_modules/${name}/`))) problems.push(`devDependency ${name}`);
  }
  if (!appFiles.some((f) => /^node_modules\/@img\/sharp-wasm32\/lib\/.*\.wasm$/.test(f))) {
    problems.push('missing sharp wasm32 build (node_modules/@img/sharp-wasm32/lib/*.wasm)');
  }
  return problems;
}

/** Makes a 2048 x 2048 JPEG and its 320 px WebP thumbnail with the app's own sharp, in a child node. */
const LOAD_PROBE = `
import sharp from 'sharp';
const pixels = Buffer.alloc(2048 * 2048 * 3, 0x80);
const jpeg = await sharp(pixels, { raw: { width: 2048, height: 2048, channels: 3 } }).jpeg().toBuffer();
const { info } = await sharp(jpeg).resize(320, 320, { fit: 'inside' }).webp().toBuffer({ resolveWithObject: true });
console.log(JSON.stringify({ wasm32: 'emscripten' in sharp.versions, width: info.width, format: info.format }));
`;

/** Problems loading sharp from the extracted app folder (its node_modules only) and thumbnailing. */
export function loadProblems(appDir: string): string[] {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', LOAD_PROBE], {
    cwd: appDir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '' }, // no NODE_PATH: modules resolve from the package only
  });
  if (run.status !== 0) return [`sharp did not load from the package: ${run.stderr.trim().split('\n')[0]}`];
  const answer = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as {
    wasm32?: boolean;
    width?: number;
    format?: string;
  };
  const problems: string[] = [];
  if (answer.wasm32 !== true) problems.push('sharp loaded a native build, not wasm32');
  if (answer.width !== 320 || answer.format !== 'webp')
    problems.push(`thumbnail wrong: ${run.stdout.trim()}`);
  return problems;
}

export interface FolderReport {
  folder: string;
  files: number;
  problems: string[];
}

/** Checks one `linux-*-unpacked` folder: its executable, its app.asar, and sharp loading from it. */
export function checkAppFolder(
  projectDir: string,
  folder: string,
  executable: string,
  extractTo: string,
): FolderReport {
  const problems: string[] = [];
  if (!existsSync(join(folder, executable))) problems.push(`missing executable ${executable}`);
  const asar = join(folder, 'resources', 'app.asar');
  if (!existsSync(asar)) return { folder, files: 0, problems: [...problems, 'missing resources/app.asar'] };
  const unpacked = join(folder, 'resources', 'app.asar.unpacked');
  if (existsSync(unpacked) && statSync(unpacked).isDirectory()) {
    for (const file of listFiles(unpacked)) problems.push(`unpacked from the asar: ${file}`);
  }
  extractAll(asar, extractTo);
  const files = listFiles(extractTo);
  problems.push(...contentProblems(projectDir, files), ...loadProblems(extractTo));
  return { folder, files: files.length, problems };
}
