/**
 * When sharp cannot load (a package without its binary), only image work fails, and clearly:
 * modules load without it (sharp is imported lazily, image-codec.ts), a thumbnail rejects with
 * `ImageCodecUnavailableError` (the output is then saved without one, with a note), and the
 * sandbox's image decoding fails with that error rather than calling the input unsupported.
 * A picture saved so still has its size, read from its header without decoding, so the window
 * can tell whether it may show it (src/shared/media/picture-decoding.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { hugePng } from '../support/oversized-pictures.ts';

vi.mock('sharp', () => {
  throw new Error('Could not load the "sharp" module using the linux-x64 runtime\nPossible solutions: ...');
});

describe('image code without sharp', () => {
  it('loads the modules that use sharp without loading it', async () => {
    await expect(import('../../src/core/downloads/index.ts')).resolves.toBeDefined();
    await expect(import('../../src/sandbox/media/index.ts')).resolves.toBeDefined();
  });

  it('rejects a thumbnail with ImageCodecUnavailableError', async () => {
    const { makeThumbnail } = await import('../../src/core/downloads/index.ts');
    const { ImageCodecUnavailableError } = await import('../../src/sandbox/media/index.ts');
    const dir = mkdtempSync(join(tmpdir(), 'codec-unavailable-'));
    writeFileSync(join(dir, 'a.png'), 'not read');
    const made = makeThumbnail(dir, 'a.png', 0);
    await expect(made).rejects.toBeInstanceOf(ImageCodecUnavailableError);
    // vitest wraps the factory's error in its own message; the prefix is the app's
    await expect(made).rejects.toThrow(
      'image processing is unavailable: the image library (sharp) could not load: ',
    );
  });

  it('fails sandbox image decoding with the load error, not as a bad input', async () => {
    const { decodeImageBytes, ImageCodecUnavailableError, MediaInputError } = await import(
      '../../src/sandbox/media/index.ts'
    );
    const failure = await decodeImageBytes(Buffer.from('png?')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImageCodecUnavailableError);
    expect(failure).not.toBeInstanceOf(MediaInputError);
  });

  it('saves a picture without a thumbnail but with its size from the header, and the note', async () => {
    const { saveOutputs } = await import('../../src/core/engine/saving/output-saving.ts');
    const { LibraryStore } = await import('../../src/core/store/index.ts');
    const dir = mkdtempSync(join(tmpdir(), 'codec-unavailable-'));
    const store = LibraryStore.open(dir);
    try {
      const model = 'service/image-toolkit';
      const task = store.insertTask({
        model,
        taskType: 'upscale',
        title: 'Without sharp',
        request: { model, task_type: 'upscale', input: { image: 'https://example.test/a.png' } },
        estimateMicros: 0,
      });
      // a real PNG header (the pixels are never read): 1200 x 900
      const png = hugePng(1200, 900).toString('base64');
      store.replaceOutputs(task.id, [
        { kind: 'image', url: `data:image/png;base64,${png}`, field: 'image_url' },
      ]);
      const ctx = { store, libraryDir: dir, maxOutputBytes: 1 << 26, maxTaskBytes: 1 << 27 };
      expect(await saveOutputs(ctx, store.getTask(task.id)!)).toBeNull();
      const [output] = store.getTask(task.id)!.outputs;
      expect(output).toMatchObject({ state: 'saved', thumbPath: null, width: 1200, height: 900 });
      expect(output?.error).toMatch(/^no thumbnail: image processing is unavailable/);
    } finally {
      store.close();
    }
  });
});
