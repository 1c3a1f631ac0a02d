/**
 * The `studio-media:` answers with the Fetch API's Request and Response on Node, over real
 * files: whole files, byte ranges for seeking, 416, 404 for anything outside the library or not
 * a media file, 405 for other methods, no body for HEAD; CORS allows the app page's origin
 * only, never `*` (security review, issue 17 item 9).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveLibraryMediaPath } from '../../src/core/library/index.ts';
import { answerMediaRequest } from '../../src/main/platform/media-response.ts';
import { removeDir, tempDir } from '../backend/backend-fixtures.ts';

let root: string;
let resolver: { resolveMediaPath(path: string): string | null };
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));

beforeAll(async () => {
  root = await tempDir('mts-media-response-');
  const lib = join(root, 'library');
  mkdirSync(join(lib, '2025', '01', 't1'), { recursive: true });
  writeFileSync(join(lib, '2025', '01', 't1', 'output-1.wav'), BYTES);
  writeFileSync(join(root, 'outside.wav'), 'secret');
  symlinkSync(join(root, 'outside.wav'), join(lib, 'link.wav'));
  resolver = { resolveMediaPath: (p) => resolveLibraryMediaPath(lib, p) };
});

afterAll(async () => {
  await removeDir(root);
});

const url = 'studio-media://library/2025/01/t1/output-1.wav';
const APP_ORIGIN = 'studio-app://app';
const ask = (target: string, init: RequestInit = {}) =>
  answerMediaRequest(resolver, new Request(target, init), APP_ORIGIN);

describe('studio-media answers', () => {
  it('sends a whole file with its type', async () => {
    const r = await ask(url);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('audio/wav');
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(Buffer.from(await r.arrayBuffer())).toEqual(BYTES);
  });

  it('allows only the app page’s origin to read a file (never *), on every answer', async () => {
    const fromElsewhere = { headers: { Origin: 'https://evil.example' } };
    const answers = [
      await ask(url),
      await ask(url, fromElsewhere),
      await ask(url, { headers: { ...fromElsewhere.headers, Range: 'bytes=0-9' } }),
      await ask(url, { method: 'HEAD' }),
      await ask('studio-media://library/2025/01/t1/missing.wav'),
    ];
    for (const r of answers) {
      expect(r.headers.get('access-control-allow-origin')).not.toBe('*');
      expect([APP_ORIGIN, null]).toContain(r.headers.get('access-control-allow-origin'));
      expect(r.headers.get('vary')).toBe('Origin');
    }
    expect(answers[1]?.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN); // the browser refuses it
    const dev = await answerMediaRequest(resolver, new Request(url), 'http://localhost:5173');
    expect(dev.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('sends the bytes a range asks for', async () => {
    const r = await ask(url, { headers: { Range: 'bytes=100-199' } });
    expect(r.status).toBe(206);
    expect(r.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(r.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(Buffer.from(await r.arrayBuffer())).toEqual(BYTES.subarray(100, 200));
    const tail = await ask(url, { headers: { Range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(BYTES.subarray(990));
  });

  it('answers 416 past the end, 405 for other methods, nothing for HEAD', async () => {
    expect((await ask(url, { headers: { Range: 'bytes=5000-' } })).status).toBe(416);
    expect((await ask(url, { method: 'POST', body: 'x' })).status).toBe(405);
    const head = await ask(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000');
    expect(head.body).toBeNull();
  });

  it.each([
    'studio-media://library/../outside.wav',
    'studio-media://library/%2e%2e/outside.wav',
    'studio-media://library/link.wav',
    'studio-media://library/library.sqlite',
    'studio-media://elsewhere/2025/01/t1/output-1.wav',
    'studio-media://library/2025/01/t1/missing.wav',
  ])('answers 404 for %s', async (target) => {
    const r = await ask(target);
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('not found');
  });
});
