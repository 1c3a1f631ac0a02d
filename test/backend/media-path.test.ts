/**
 * The media URL resolver on real files and symlinks: only media files under the real library
 * folder come back; traversal in every spelling, absolute paths, NUL, non-media files and
 * symlinks that leave the library are refused. Also the byte-range answers used for seeking.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  libraryRelativePath,
  mediaTypeOf,
  parseRangeHeader,
  planMediaResponse,
  resolveLibraryMediaPath,
} from '../../src/core/library/index.ts';
import { removeDir, tempDir } from './backend-fixtures.ts';

let root: string;
let lib: string;

beforeAll(async () => {
  root = await tempDir('mts-media-path-');
  lib = join(root, 'library');
  mkdirSync(join(lib, '2025', '01', 'task-1'), { recursive: true });
  writeFileSync(join(lib, '2025', '01', 'task-1', 'output-1.wav'), 'RIFF....');
  writeFileSync(join(lib, '2025', '01', 'task-1', 'my image.png'), 'png');
  writeFileSync(join(lib, 'library.sqlite'), 'db');
  writeFileSync(join(lib, 'engine.lock'), '1');
  writeFileSync(join(root, 'secret.png'), 'outside');
  mkdirSync(join(root, 'library-evil'), { recursive: true });
  writeFileSync(join(root, 'library-evil', 'x.png'), 'sibling');
  symlinkSync(join(root, 'secret.png'), join(lib, 'escape.png'));
  symlinkSync(root, join(lib, 'escape-dir'));
  symlinkSync(join(lib, '2025', '01', 'task-1', 'output-1.wav'), join(lib, 'inside-link.wav'));
});

afterAll(async () => {
  await removeDir(root);
});

describe('resolveLibraryMediaPath', () => {
  it('serves media files under the library, with or without a leading slash, decoding escapes', () => {
    const wav = join(lib, '2025', '01', 'task-1', 'output-1.wav');
    expect(resolveLibraryMediaPath(lib, '/2025/01/task-1/output-1.wav')).toBe(wav);
    expect(resolveLibraryMediaPath(lib, '2025/01/task-1/output-1.wav')).toBe(wav);
    expect(resolveLibraryMediaPath(lib, '/2025/01/task-1/my%20image.png')).toBe(
      join(lib, '2025', '01', 'task-1', 'my image.png'),
    );
    expect(resolveLibraryMediaPath(lib, '/inside-link.wav')).toBe(wav);
  });

  it.each([
    ['/../secret.png'],
    ['/2025/../../secret.png'],
    ['/%2e%2e/secret.png'],
    ['/2025/%2E%2E/%2e%2e/secret.png'],
    ['/..%2fsecret.png'],
    ['/..%5csecret.png'],
    ['/2025\\..\\..\\secret.png'],
    ['//etc/passwd.png'],
    ['/%2Ftmp%2Fx.png'],
    ['/C:/Windows/win.png'],
    ['/2025/01/task-1/output-1.wav%00.png'],
    ['/./2025/01/task-1/output-1.wav'],
    ['/%E0%A4%A'],
    ['/escape.png'],
    ['/escape-dir/secret.png'],
    ['/escape-dir/library-evil/x.png'],
    ['/../library-evil/x.png'],
    ['/library.sqlite'],
    ['/engine.lock'],
    ['/2025/01/task-1'],
    ['/2025/01/task-1/missing.png'],
    [''],
    ['/'],
  ])('refuses %j', (urlPath) => {
    expect(resolveLibraryMediaPath(lib, urlPath)).toBeNull();
  });

  it('parses relative paths strictly', () => {
    expect(libraryRelativePath('/a/b%20c.png')).toBe('a/b c.png');
    expect(libraryRelativePath('/a//b.png')).toBeNull();
    expect(mediaTypeOf('x/Y.MP4')).toBe('video/mp4');
    expect(mediaTypeOf('x/constructor')).toBeNull();
    expect(mediaTypeOf('x/a.toString')).toBeNull();
  });
});

describe('byte ranges', () => {
  it('parses the forms a media element sends', () => {
    expect(parseRangeHeader(null, 100)).toBeNull();
    expect(parseRangeHeader('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRangeHeader('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(parseRangeHeader('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRangeHeader('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRangeHeader('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRangeHeader('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRangeHeader('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRangeHeader('bytes=5-2', 100)).toBeNull();
    expect(parseRangeHeader('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRangeHeader('items=0-1', 100)).toBeNull();
    expect(parseRangeHeader('bytes=99999999999999999999-', 100)).toBeNull();
  });

  it('plans 200, 206 and 416 answers', () => {
    const whole = planMediaResponse(100, 'audio/wav', undefined);
    expect(whole).toMatchObject({ status: 200, range: { start: 0, end: 99 } });
    expect(whole.headers).toMatchObject({
      'Content-Length': '100',
      'Accept-Ranges': 'bytes',
      'Content-Type': 'audio/wav',
    });
    const part = planMediaResponse(100, 'audio/wav', 'bytes=10-19');
    expect(part).toMatchObject({ status: 206, range: { start: 10, end: 19 } });
    expect(part.headers).toMatchObject({ 'Content-Range': 'bytes 10-19/100', 'Content-Length': '10' });
    const bad = planMediaResponse(100, 'audio/wav', 'bytes=200-');
    expect(bad).toMatchObject({ status: 416, range: null });
    expect(bad.headers['Content-Range']).toBe('bytes */100');
    expect(planMediaResponse(0, 'image/png', null)).toMatchObject({ status: 200, range: null });
  });
});
