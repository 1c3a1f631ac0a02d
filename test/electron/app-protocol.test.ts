/**
 * The app page's own protocol (`studio-app://app/…`, security checklist #18): it serves the
 * built renderer folder and nothing else — no traversal, no symlink out, no other origin — with
 * the Content-Security-Policy on the page. Real files in a temporary folder, Fetch API objects.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAppRequest, appFileOf } from '../../src/main/platform/app-protocol-files.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/main/platform/content-security-policy.ts';

let root: string;
let renderer: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mts-app-protocol-'));
  renderer = join(root, 'out', 'renderer');
  await mkdir(join(renderer, 'assets'), { recursive: true });
  await writeFile(join(renderer, 'index.html'), '<!doctype html><title>app</title>');
  await writeFile(join(renderer, 'assets', 'index.js'), 'console.log(1)');
  await writeFile(join(root, 'secret.txt'), 'private');
  await writeFile(join(root, 'out', 'secret.js'), 'private');
  await symlink(join(root, 'secret.txt'), join(renderer, 'assets', 'leak.js'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const get = (url: string, method = 'GET') => answerAppRequest(renderer, new Request(url, { method }));

describe('studio-app://', () => {
  it('serves the page with its policy, and the assets with their types', async () => {
    const page = await get('studio-app://app/index.html');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await page.text()).toContain('<title>app</title>');
    const script = await get('studio-app://app/assets/index.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await get('studio-app://app/')).status).toBe(200);
  });

  it.each([
    'studio-app://app/../secret.js',
    'studio-app://app/%2e%2e/secret.js',
    'studio-app://app/assets/..%2f..%2fsecret.js',
    'studio-app://app/..%5csecret.js',
    'studio-app://app/assets/leak.js',
    'studio-app://other/index.html',
    'studio-app://app/missing.js',
    'studio-app://app/index.html%00.js',
    'file:///etc/passwd',
    'studio-media://library/a.png',
  ])('refuses %s', async (url) => {
    const answer = await get(url);
    expect(answer.status).toBe(404);
    expect(await answer.text()).not.toContain('private');
  });

  it('answers only GET and HEAD', async () => {
    expect((await get('studio-app://app/index.html', 'POST')).status).toBe(405);
    const head = await get('studio-app://app/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('maps a URL to a file inside the folder only', () => {
    expect(appFileOf(renderer, 'studio-app://app/assets/index.js')).toBe(
      join(renderer, 'assets', 'index.js'),
    );
    // the URL parser resolves dot segments first: this names a file inside the folder
    expect(appFileOf(renderer, 'studio-app://app/../../etc/passwd')).toBe(join(renderer, 'etc', 'passwd'));
    expect(appFileOf(renderer, 'studio-app://app/x/..%2f..%2f..%2fetc/passwd')).toBeNull();
    expect(appFileOf(renderer, 'studio-app://app:99/index.html')).toBeNull();
  });
});
