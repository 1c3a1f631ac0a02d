import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FileInput,
  InputValidationError,
  UnsafePathError,
  validateInput,
} from '../../src/core/inputs/index.ts';
import {
  contentInputPath,
  copyFileInput,
  decodeBase64Input,
  hashBytes,
  hashFileInput,
  hasInputFile,
  isContentInputPath,
  keepFileInput,
  writeInputBytes,
} from '../../src/core/library/index.ts';
import { makeImage, makeTempDir, writeFixture } from '../inputs/input-fixtures.ts';

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

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Keeps a validated file as the engine does (`keepFileInput`, nothing held); returns its library path. */
async function keep(library: string, input: FileInput): Promise<string> {
  return (await keepFileInput(library, input, () => {})).path;
}

describe('input files named by their content', () => {
  it('copies to inputs/<sha256>.<sniffed ext>, and the copy survives deleting the original', async () => {
    const bytes = await makeImage('jpeg', 400, 300);
    const input = await validatedFile('Holiday Photo (1).jpeg', bytes);
    const library = join(dir, 'library-1');
    await mkdir(library);
    expect(await hashFileInput(input)).toEqual({ sha256: sha256(bytes), size: bytes.length });
    const path = await keep(library, input);
    expect(path).toBe(`inputs/${sha256(bytes)}.jpg`);
    await rm(input.path);
    expect(await readFile(join(library, path))).toEqual(bytes);
    expect(await readdir(join(library, 'inputs'))).toEqual([`${sha256(bytes)}.jpg`]); // no temp file left
  });

  it('names the copy from the sniffed type, not the source name or the field', async () => {
    const bytes = await makeImage('png', 8, 8);
    const input = await validatedFile('misnamed.gif', bytes, 'image1');
    expect(contentInputPath(sha256(bytes), input.ext)).toBe(`inputs/${sha256(bytes)}.png`);
  });

  it('copies a multi-megabyte file exactly', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 7);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 2654435761) >>> 24;
    (await makeImage('png', 8, 8)).copy(bytes, 0); // a PNG header, then arbitrary bytes
    const library = join(dir, 'library-3');
    await mkdir(library);
    const path = await keep(library, await validatedFile('large.png', bytes, 'image2'));
    expect(path).toBe(`inputs/${sha256(bytes)}.png`);
    expect((await stat(join(library, path))).size).toBe(bytes.length);
    expect(sha256(await readFile(join(library, path)))).toBe(sha256(bytes));
  });

  it('knows a content it already holds (a regular file of that size), and nothing else', async () => {
    const bytes = await makeImage('png', 9, 9);
    const library = join(dir, 'library-4');
    await mkdir(library);
    const path = await keep(library, await validatedFile('a.png', bytes, 'image1'));
    expect(await hasInputFile(library, path, bytes.length)).toBe(true);
    expect(await hasInputFile(library, path, bytes.length + 1)).toBe(false);
    expect(await hasInputFile(library, `inputs/${'0'.repeat(64)}.png`, bytes.length)).toBe(false);
    expect(await hasInputFile(library, '../a.png', bytes.length)).toBe(false);
    const linked = `inputs/${'1'.repeat(64)}.png`;
    await symlink(join(library, path), join(library, linked));
    expect(await hasInputFile(library, linked, bytes.length)).toBe(false);
  });

  it('refuses a source changed since validation, or between hashing and copying, leaving nothing behind', async () => {
    const input = await validatedFile('changing.png', await makeImage('png', 8, 8));
    await writeFile(input.path, Buffer.concat([await makeImage('png', 8, 8), Buffer.alloc(10)]));
    await expect(hashFileInput(input)).rejects.toThrow(InputValidationError);
    await writeFile(input.path, 'now it is text');
    await expect(hashFileInput(input)).rejects.toThrow('file changed since it was checked');

    const original = await makeImage('png', 8, 8);
    await writeFile(input.path, original);
    const hash = await hashFileInput(input);
    const other = Buffer.from(original);
    other[other.length - 20] = (other[other.length - 20] ?? 0) ^ 0xff; // same size and type, other bytes
    await writeFile(input.path, other);
    const library = join(dir, 'library-5');
    await mkdir(library);
    await expect(copyFileInput(library, input, contentInputPath(hash.sha256, 'png'), hash)).rejects.toThrow(
      'file changed since it was checked',
    );
    expect(await readdir(join(library, 'inputs'))).toEqual([]);
  });

  it('refuses a source deleted since validation', async () => {
    const input = await validatedFile('gone.png', await makeImage('png', 8, 8));
    await rm(input.path);
    await expect(hashFileInput(input)).rejects.toThrow(`target_image: file not found: ${input.path}`);
  });

  it('names only inputs/<64 hex digits>.<short lower-case ext>: nothing else can be made or matched', () => {
    const hex = 'a'.repeat(64);
    expect(isContentInputPath(`inputs/${hex}.png`)).toBe(true);
    for (const stored of [
      `inputs/${hex}`,
      `inputs/${hex}.PNG`,
      `inputs/${hex.slice(1)}.png`,
      `inputs/task-1/${hex}.png`,
      `../inputs/${hex}.png`,
      `inputs/${hex}.png/../x`,
      'inputs/t1/target_image.png',
    ]) {
      expect([stored, isContentInputPath(stored)]).toEqual([stored, false]);
    }
    expect(() => contentInputPath(hex, 'png/../../x')).toThrow('unsafe file extension');
    expect(() => contentInputPath('../evil', 'png')).toThrow('not a SHA-256');
  });

  it('writes decoded Base64 (raw or a data URI) the same way', async () => {
    const bytes = await makeImage('webp', 12, 10);
    const raw = decodeBase64Input(bytes.toString('base64'));
    const uri = decodeBase64Input(`data:image/webp;base64,${bytes.toString('base64')}`);
    expect(Buffer.from(raw.bytes)).toEqual(bytes);
    expect(Buffer.from(uri.bytes)).toEqual(bytes);
    expect(raw.type?.mime).toBe('image/webp');
    const library = join(dir, 'library-8');
    await mkdir(library);
    const hash = hashBytes(raw.bytes);
    const path = contentInputPath(hash.sha256, raw.type?.ext ?? '');
    await writeInputBytes(library, path, raw.bytes);
    expect(await readFile(join(library, path))).toEqual(bytes);
    expect(await hasInputFile(library, path, bytes.length)).toBe(true);
  });

  it('never writes through a link planted where the input folder should be', async () => {
    const library = join(dir, 'library-9');
    const elsewhere = join(dir, 'elsewhere');
    await mkdir(library);
    await mkdir(elsewhere);
    await symlink(elsewhere, join(library, 'inputs'));
    const bytes = await makeImage('png', 8, 8);
    const hash = hashBytes(bytes);
    await expect(writeInputBytes(library, contentInputPath(hash.sha256, 'png'), bytes)).rejects.toThrow(
      UnsafePathError,
    );
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
