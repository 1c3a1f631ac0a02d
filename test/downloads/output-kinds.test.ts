/**
 * Results are saved by the media table's kinds: the bytes decide the extension and the content
 * type, a 3D model (GLB) included, and the library serves what it saved under that type.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadOutput } from '../../src/core/downloads/index.ts';
import { mediaTypeOf, resolveLibraryMediaPath } from '../../src/core/library/media-path.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { removeDir, tempDir } from '../engine/engine-fixtures.ts';
import { makeGlb } from '../inputs/input-fixtures.ts';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('mts-output-kinds-');
});
afterAll(() => removeDir(dir));

const options = (kind: '3d' | 'file' | 'video' | 'image', index: number) => ({
  libraryDir: dir,
  taskId: 'task-kinds',
  createdAt: '2026-11-26T10:00:00.000Z',
  index,
  kind,
  maxBytes: 50 * 1024 * 1024,
});
const dataUri = (mime: string, bytes: Uint8Array) =>
  `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;

describe('saving results by the table of media kinds', () => {
  it('saves a GLB as .glb with model/gltf-binary, as a 3D model or as a plain file, and serves it so', async () => {
    const glb = makeGlb();
    const model = await downloadOutput(dataUri('application/octet-stream', glb), options('3d', 0));
    expect(model).toMatchObject({ mime: 'model/gltf-binary', size: glb.length });
    expect(model.path).toMatch(/\/output-1\.glb$/);
    expect(await readFile(join(dir, model.path))).toEqual(glb);
    const plain = await downloadOutput(dataUri('application/octet-stream', glb), options('file', 1));
    expect(plain.path).toMatch(/\/output-2\.glb$/);
    // a plain file's bytes name its kind: the engine records a last-pass result so
    expect([model.kind, plain.kind]).toEqual(['3d', '3d']);
    expect(mediaTypeOf(model.path)).toBe('model/gltf-binary');
    expect(resolveLibraryMediaPath(dir, model.path)).not.toBeNull();
  });

  it('refuses a 3D result that is not one, and keeps unknown bytes of a plain file as .bin', async () => {
    const mp4 = generateVideoMp4({ prompt: 'kinds', seconds: 0.2 });
    await expect(downloadOutput(dataUri('video/mp4', mp4), options('3d', 2))).rejects.toThrow(
      'it should be a 3D model but its content is video/mp4',
    );
    const video = await downloadOutput(dataUri('video/mp4', mp4), options('video', 3));
    expect(video).toMatchObject({ mime: 'video/mp4' });
    expect(video.path).toMatch(/\/output-4\.mp4$/);
    const other = await downloadOutput(dataUri('text/plain', Buffer.from('just text')), options('file', 4));
    expect(other).toMatchObject({ mime: 'application/octet-stream', kind: 'file' });
    expect(other.path).toMatch(/\/output-5\.bin$/);
    expect(mediaTypeOf(other.path)).toBeNull();
  });
});
