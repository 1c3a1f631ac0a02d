import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  copyIntoLibrary,
  type FileInput,
  InputValidationError,
  validateInput,
} from '../../src/main/media/index.ts';
import { makeImage, makeTempDir, writeFixture } from './media-fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(() => cleanup());

async function validatedFile(name: string, bytes: Uint8Array, field = 'target_image'): Promise<FileInput> {
  const path = await writeFixture(dir, name, bytes);
  const input = await validateInput(path, { field, kind: 'image' });
  if (input.source !== 'file') throw new Error('expected a file input');
  return input;
}

describe('copyIntoLibrary', () => {
  it('copies under <field>.<sniffed ext>, hashing while copying, and survives deleting the original', async () => {
    const bytes = await makeImage('jpeg', 400, 300);
    const input = await validatedFile('Holiday Photo (1).jpeg', bytes);
    const dest = join(dir, 'library', 'task-1');
    const copy = await copyIntoLibrary(input, dest);
    expect(copy).toEqual({
      path: join(dest, 'target_image.jpg'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
    });
    await rm(input.path);
    expect(await readFile(copy.path)).toEqual(bytes);
    expect(await readdir(dest)).toEqual(['target_image.jpg']); // no temp file left behind
  });

  it('names the copy from the sniffed type, not the source name', async () => {
    const input = await validatedFile('misnamed.gif', await makeImage('png', 8, 8), 'image1');
    const copy = await copyIntoLibrary(input, join(dir, 'library', 'task-2'));
    expect(copy.path).toBe(join(dir, 'library', 'task-2', 'image1.png'));
  });

  it('copies a multi-megabyte file exactly', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    (await makeImage('png', 8, 8)).copy(bytes, 0); // a PNG header, then arbitrary bytes
    const input = await validatedFile('large.png', bytes, 'image2');
    const copy = await copyIntoLibrary(input, join(dir, 'library', 'task-3'));
    expect(copy.size).toBe(bytes.length);
    expect(copy.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect((await stat(copy.path)).size).toBe(bytes.length);
  });

  it('replaces an earlier copy of the same field', async () => {
    const dest = join(dir, 'library', 'task-4');
    await copyIntoLibrary(await validatedFile('a.png', await makeImage('png', 8, 8), 'image1'), dest);
    const second = await makeImage('png', 9, 9);
    const copy = await copyIntoLibrary(await validatedFile('b.png', second, 'image1'), dest);
    expect(await readFile(copy.path)).toEqual(second);
    expect(await readdir(dest)).toEqual(['image1.png']);
  });

  it('refuses a source changed since validation, leaving nothing behind', async () => {
    const input = await validatedFile('changing.png', await makeImage('png', 8, 8));
    await writeFile(input.path, Buffer.concat([await makeImage('png', 8, 8), Buffer.alloc(10)]));
    const dest = join(dir, 'library', 'task-5');
    await expect(copyIntoLibrary(input, dest)).rejects.toThrow(InputValidationError);
    await writeFile(input.path, 'now it is text');
    await expect(copyIntoLibrary(input, dest)).rejects.toThrow('file changed since it was checked');
    expect(await readdir(dest)).toEqual([]);
  });

  it('refuses a source deleted since validation', async () => {
    const input = await validatedFile('gone.png', await makeImage('png', 8, 8));
    await rm(input.path);
    await expect(copyIntoLibrary(input, join(dir, 'library', 'task-6'))).rejects.toThrow(
      `target_image: file not found: ${input.path}`,
    );
  });

  it('refuses field names or extensions that could escape the folder', async () => {
    const input = await validatedFile('ok.png', await makeImage('png', 8, 8));
    const dest = join(dir, 'library', 'task-7');
    await expect(copyIntoLibrary({ ...input, field: '../evil' }, dest)).rejects.toThrow(
      'unsafe input field name',
    );
    await expect(copyIntoLibrary({ ...input, ext: 'png/../../x' }, dest)).rejects.toThrow(
      'unsafe file extension',
    );
  });
});
