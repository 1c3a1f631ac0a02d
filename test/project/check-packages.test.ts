/**
 * The packaged app's contents (scripts/check-packages.ts): the Linux x64 and arm64 app folders
 * built by electron-builder around a stand-in Electron hold no native code and no devDependency,
 * hold the built app, and sharp's wasm32 build loads from them. About 10 s (build included), so
 * it runs in the unit suite; `CHECK_PACKAGES=0` skips it.
 */
import { describe, expect, it } from 'vitest';
import { checkPackages } from '../../scripts/check-packages.ts';
import { contentProblems } from '../../scripts/package-contents.ts';

const PROJECT_DIR = `${import.meta.dirname}/../..`;

describe('package contents rules', () => {
  it('names native files, native sharp packages and devDependencies', () => {
    const problems = contentProblems(PROJECT_DIR, [
      'node_modules/@img/sharp-linux-arm64/lib/sharp-linux-arm64.node',
      'node_modules/@img/sharp-libvips-linux-arm64/lib/libvips-cpp.so.8.18.7',
      'node_modules/vitest/package.json',
      'out/e2e-renderer/index.html',
      'out/bench-cache/library.sqlite',
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        'missing out/main/index.js',
        'native file node_modules/@img/sharp-linux-arm64/lib/sharp-linux-arm64.node',
        'native file node_modules/@img/sharp-libvips-linux-arm64/lib/libvips-cpp.so.8.18.7',
        'native sharp package file node_modules/@img/sharp-libvips-linux-arm64/lib/libvips-cpp.so.8.18.7',
        'devDependency vitest',
        "not part of the app's build out/e2e-renderer/index.html",
        "not part of the app's build out/bench-cache/library.sqlite",
        'missing sharp wasm32 build (node_modules/@img/sharp-wasm32/lib/*.wasm)',
      ]),
    );
  });
});

describe.skipIf(process.env.CHECK_PACKAGES === '0')('npm run check:packages', () => {
  it('builds both Linux app folders, each holding exactly what it needs', { timeout: 120_000 }, async () => {
    const report = await checkPackages();
    expect(report.folders.map((f) => f.folder.split('/').at(-1))).toEqual([
      'linux-unpacked',
      'linux-arm64-unpacked',
    ]);
    for (const folder of report.folders) expect(folder.problems, folder.folder).toEqual([]);
  });
});
