/**
 * The pure rules of the Electron shell, on Node: which pages are the app's, which IPC senders
 * are trusted, which links and permissions are allowed, the CSP header, media URLs, menu
 * commands and notification words.
 */
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appPageOf, isAllowedSender, isAppPageUrl } from '../../src/main/platform/app-page-origin.ts';
import {
  CONTENT_SECURITY_POLICY,
  developmentPolicy,
  withPolicy,
} from '../../src/main/platform/content-security-policy.ts';
import { isAllowedExternalUrl } from '../../src/main/platform/external-links.ts';
import { finishNoticeOf } from '../../src/main/platform/finish-notice.ts';
import { MEDIA_BASE_URL, mediaRequestPath } from '../../src/main/platform/media-scheme.ts';
import { FILE_COMMANDS, GO_COMMANDS, SETTINGS_COMMAND } from '../../src/main/platform/menu-commands.ts';
import { isPermissionAllowed } from '../../src/main/platform/permission-policy.ts';
import type { Task } from '../../src/shared/index.ts';

const index = join('/opt', 'Media Task Studio', 'resources', 'app.asar', 'out', 'renderer', 'index.html');
const appPage = appPageOf(undefined, true, index);
const devPage = appPageOf('http://localhost:5173/', false, index);
const indexUrl = 'studio-app://app/index.html';

describe('the app page', () => {
  it('is the built renderer served by studio-app:// when packaged, even with a dev server URL set', () => {
    expect(appPage).toEqual({ kind: 'app', url: 'studio-app://app/index.html', dir: dirname(index) });
    expect(appPageOf('http://localhost:5173', true, index)).toEqual(appPage);
  });

  it('is the dev server only on a loopback http address', () => {
    expect(devPage).toEqual({ kind: 'dev-server', origin: 'http://localhost:5173' });
    expect(appPageOf('http://127.0.0.1:5173', false, index).kind).toBe('dev-server');
    expect(appPageOf('http://evil.example:5173', false, index)).toEqual(appPage);
    expect(appPageOf('file:///tmp/x.html', false, index)).toEqual(appPage);
    expect(appPageOf('not a url', false, index)).toEqual(appPage);
  });

  it.each([
    ['studio-app://app/index.html', true],
    ['studio-app://app/index.html#/library', true],
    ['studio-app://app/index.html?x=1', true],
    ['studio-app://app/', true],
    ['studio-app://app/assets/x.js', false],
    ['studio-app://other/index.html', false],
    ['studio-app://user:pw@app/index.html', false],
    [pathToFileURL(index).href, false],
    ['https://example.org/', false],
    ['studio-media://library/a.png', false],
    ['', false],
  ])('app page: %s -> %s', (url, expected) => {
    expect(isAppPageUrl(url, appPage)).toBe(expected);
  });

  it.each([
    ['http://localhost:5173/', true],
    ['http://localhost:5173/src/main.tsx', true],
    ['http://localhost:5174/', false],
    ['http://user:pw@localhost:5173/', false],
    ['https://localhost:5173/', false],
    ['studio-app://app/index.html', false],
  ])('dev page: %s -> %s', (url, expected) => {
    expect(isAppPageUrl(url, devPage)).toBe(expected);
  });
});

describe('IPC senders', () => {
  const top = { url: indexUrl, isTopFrame: true, isMainWindow: true };
  it('trusts only the app page in the main window top frame', () => {
    expect(isAllowedSender(top, appPage)).toBe(true);
    expect(isAllowedSender({ ...top, isTopFrame: false }, appPage)).toBe(false);
    expect(isAllowedSender({ ...top, isMainWindow: false }, appPage)).toBe(false);
    expect(isAllowedSender({ ...top, url: 'https://evil.example/' }, appPage)).toBe(false);
    expect(isAllowedSender({ ...top, url: '' }, appPage)).toBe(false);
    expect(isAllowedSender(null, appPage)).toBe(false);
  });
});

describe('links and permissions', () => {
  const list = ['https://docs.example.org/guide', 'https://help.example.org/'];
  it.each([
    ['https://docs.example.org/guide', true],
    ['https://docs.example.org/guide/more', false],
    ['https://help.example.org/a/b', true],
    ['https://help.example.org.evil.example/', false],
    ['http://help.example.org/a', false],
    ['https://user@help.example.org/a', false],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('external %s -> %s', (url, expected) => {
    expect(isAllowedExternalUrl(url, list)).toBe(expected);
  });

  it('grants clipboard writes and fullscreen to the app page only', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', indexUrl, appPage)).toBe(true);
    expect(isPermissionAllowed('fullscreen', indexUrl, appPage)).toBe(true);
    expect(isPermissionAllowed('fullscreen', 'https://evil.example/', appPage)).toBe(false);
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'hid']) {
      expect(isPermissionAllowed(p, indexUrl, appPage)).toBe(false);
    }
  });
});

describe('content security policy', () => {
  it('is the agreed policy', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' studio-media: blob: data:; media-src 'self' studio-media: blob:; connect-src 'self' studio-media: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    );
  });

  it('replaces a policy the server sent, whatever its case', () => {
    const headers = withPolicy(
      { 'content-security-policy': ['default-src *'], 'X-Other': 'a' },
      CONTENT_SECURITY_POLICY,
    );
    expect(headers).toEqual({ 'X-Other': ['a'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });

  it('adds only the dev server preamble and websocket in development', () => {
    const dev = developmentPolicy('http://localhost:5173');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' studio-media: ws://localhost:5173");
    expect(dev).toContain("object-src 'none'");
  });
});

describe('media URLs, menu commands and notices', () => {
  it('takes the path of studio-media://library URLs only', () => {
    expect(MEDIA_BASE_URL).toBe('studio-media://library/');
    expect(mediaRequestPath('studio-media://library/2025/01/t/output-1.wav')).toBe('/2025/01/t/output-1.wav');
    expect(mediaRequestPath('studio-media://library/a%20b.png')).toBe('/a%20b.png');
    expect(mediaRequestPath('studio-media://other/a.png')).toBeNull();
    expect(mediaRequestPath('studio-media://library:99/a.png')).toBeNull();
    expect(mediaRequestPath('file:///library/a.png')).toBeNull();
    expect(mediaRequestPath('::')).toBeNull();
  });

  it('sends the commands the renderer knows, each with its own shortcut', () => {
    const all = [...FILE_COMMANDS, ...GO_COMMANDS, SETTINGS_COMMAND];
    expect(all.map((c) => c.command)).toEqual([
      'new-song',
      'face-swap',
      'image-edit',
      'compose',
      'activity',
      'library',
      'focus-search',
      'open-settings',
    ]);
    expect(new Set(all.map((c) => c.accelerator)).size).toBe(all.length);
  });

  it('words a notice for each end', () => {
    const base = { family: 'song', title: 'Calm piano', error: null } as unknown as Task;
    expect(finishNoticeOf({ ...base, state: 'saved' }, 'linux')).toEqual({
      title: 'Song is ready',
      body: 'Calm piano',
    });
    const failed = finishNoticeOf(
      {
        ...base,
        family: 'face-swap',
        state: 'failed',
        error: { kind: 'bad-request', message: 'refused', code: 400 },
      },
      'darwin',
    );
    expect(failed).toEqual({ title: 'Face swap failed', body: 'Calm piano: refused' });
    expect(finishNoticeOf({ ...base, state: 'uncertain' }, 'win32').title).toBe('Song needs your decision');
  });

  it('a title’s direction controls are taken out, as the command line does (it reads "photognp.exe")', () => {
    const notice = finishNoticeOf(
      {
        family: 'other',
        state: 'saved',
        title: 'photo\u202egnp.exe\u2066\u200f',
        error: null,
      } as unknown as Task,
      'linux',
    );
    expect(notice.body).toBe('photognp.exe');
  });

  it('cleans a notice of a hostile title and error: no control characters, no markup Linux would read, bounded', () => {
    const hostile = {
      family: 'image-edit',
      state: 'failed',
      title: 'Cat\u0007 <b>photo</b>\r\n\u202eevil\u2066\u2028 & co',
      error: {
        kind: 'service-failed',
        message: `<a href="https://evil.example">click</a>\u0000 <img src="file:///etc/passwd"/> \u001b[31m&amp; ${'x'.repeat(1000)}`,
        code: 500,
      },
    } as unknown as Task;
    const controls = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const linux = finishNoticeOf(hostile, 'linux');
    expect(linux.title).toBe('Image edit failed');
    expect(linux.body).toMatch(
      /^Cat &lt;b&gt;photo&lt;\/b&gt; evil &amp; co: &lt;a href="https:\/\/evil\.example"&gt;click&lt;\/a&gt; &lt;img src="file:\/\/\/etc\/passwd"\/&gt; \[31m&amp;amp; x+…$/,
    );
    // other systems show text as it is: no escaping there, the same cleaning and bound
    const mac = finishNoticeOf(hostile, 'darwin');
    expect(mac.body).toMatch(
      /^Cat <b>photo<\/b> evil & co: <a href="https:\/\/evil\.example">click<\/a> <img /,
    );
    expect(mac.body).toHaveLength(240);
    expect(finishNoticeOf(hostile, 'win32').body).toBe(mac.body);
    for (const notice of [linux, mac]) {
      expect(notice.body).not.toMatch(controls);
      expect(notice.body.endsWith('x…')).toBe(true);
    }
    const unescaped = linux.body.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    expect(unescaped).toBe(mac.body);
    // a cut never splits a character made of two UTF-16 units
    const emoji = finishNoticeOf({ ...hostile, title: '🎵'.repeat(300), error: null }, 'darwin');
    expect(emoji.body).not.toMatch(loneSurrogate);
    expect(emoji.body.endsWith('🎵…')).toBe(true);
    // joiners inside an emoji sequence stay
    expect(finishNoticeOf({ ...hostile, title: 'By 👩\u200d💻', error: null }, 'linux').body).toBe(
      'By 👩\u200d💻',
    );
    expect(finishNoticeOf({ ...hostile, title: ' \u0000\u0007 ', error: null }, 'linux').body).toBe('');
  });
});
