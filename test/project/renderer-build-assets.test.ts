/**
 * The browser tests' renderer build (test/e2e/harness/renderer-build.ts): a new build keeps the
 * recent chunks of the one it replaces, so a page of a run that started on the old build can
 * still load its lazy chunks (the 3D viewer's failed to fetch when another run rebuilt under it).
 */
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryOverAssets, KEEP_REPLACED_ASSETS_MS } from '../e2e/harness/renderer-build.ts';
import { removeDir, tempDir } from '../engine/engine-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('mts-renderer-build-');
});
afterAll(() => removeDir(dir));

describe('a new renderer build', () => {
  it("keeps the replaced build's recent chunks beside its own, never over them", async () => {
    const served = join(dir, 'old/assets');
    const fresh = join(dir, 'new/assets');
    await mkdir(served, { recursive: true });
    await mkdir(fresh, { recursive: true });
    await writeFile(join(served, 'ModelViewer-OLD.js'), 'old viewer');
    await writeFile(join(served, 'index-SAME.js'), 'same name, old bytes');
    await writeFile(join(served, 'Lightbox-STALE.js'), 'from a build long ago');
    const now = Date.now();
    const longAgo = new Date(now - KEEP_REPLACED_ASSETS_MS - 60_000);
    await utimes(join(served, 'Lightbox-STALE.js'), longAgo, longAgo);
    await writeFile(join(fresh, 'ModelViewer-NEW.js'), 'new viewer');
    await writeFile(join(fresh, 'index-SAME.js'), 'new bytes');

    carryOverAssets(served, fresh, now);

    expect((await readdir(fresh)).sort()).toEqual([
      'ModelViewer-NEW.js',
      'ModelViewer-OLD.js',
      'index-SAME.js',
    ]);
    expect(await readFile(join(fresh, 'ModelViewer-OLD.js'), 'utf8')).toBe('old viewer');
    expect(await readFile(join(fresh, 'index-SAME.js'), 'utf8')).toBe('new bytes');
    // nothing to carry from a first build
    expect(() => carryOverAssets(join(dir, 'none'), fresh, now)).not.toThrow();
  });
});
