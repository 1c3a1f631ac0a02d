/**
 * The harness itself, without the React app: a blank page served by the harness server gets a
 * `window.studio` that reaches the real backend, errors arrive as StudioErrors with kind and
 * field, backend events reach page listeners, dropped files map to their on-disk paths, and
 * library media are served with byte ranges (and nothing outside the library is).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium, NO_BROWSER_MESSAGE } from './harness/chromium-location.ts';
import { dropFiles } from './harness/file-drop.ts';
import { writePicture } from './harness/local-media.ts';
import type { PageWindow } from './harness/page-dom.ts';
import { createStudioRig, type StudioPage, type StudioRig } from './harness/studio-rig.ts';

const chromium = findChromium();
if (!chromium) console.log(NO_BROWSER_MESSAGE);

const BLANK_APP = `<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head>
<body><div id="drop" style="width:200px;height:200px">drop here</div>
<script>
  window.__drops = [];
  const zone = document.getElementById('drop');
  zone.addEventListener('dragover', (e) => e.preventDefault());
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    for (const f of e.dataTransfer.files) window.__drops.push({ name: f.name, size: f.size, type: f.type, path: window.studio.pathForFile(f) });
  });
</script></body></html>`;

describe.skipIf(!chromium)('browser harness (bridge, server, file drops)', () => {
  let browser: Browser;
  let rig: StudioRig;
  let view: StudioPage;

  beforeAll(async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const appDir = await mkdtemp(join(tmpdir(), 'mts-blank-app-'));
    await writeFile(join(appDir, 'index.html'), BLANK_APP);
    [browser, rig] = await Promise.all([
      launchChromium(),
      createStudioRig({ rendererDir: appDir, service: 'demo' }),
    ]);
    view = await rig.openPage(browser);
  });

  afterAll(async () => {
    await rig?.close();
    await browser?.close();
  });

  it('answers calls from the real backend and rejects as the preload does (the error view as JSON in the message)', async () => {
    const info = await view.page.evaluate(() =>
      (globalThis as unknown as PageWindow).studio.invoke('app.info', {}),
    );
    expect(info.mediaBaseUrl).toBe(rig.server.mediaBaseUrl);
    expect(info.sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const failure = await view.page.evaluate(async () => {
      try {
        await (globalThis as unknown as PageWindow).studio.invoke('tasks.get', { id: '' });
        return null;
      } catch (err) {
        return { name: (err as Error).name, message: (err as Error).message };
      }
    });
    // contextBridge keeps only an Error's message: the renderer's bridge.ts rebuilds the StudioError
    expect(failure?.name).toBe('Error');
    expect(JSON.parse(failure?.message ?? '{}')).toEqual({
      kind: 'invalid-input',
      field: 'id',
      message: expect.stringContaining('id'),
    });
    expect(
      await view.page.evaluate(() => Object.isFrozen((globalThis as unknown as PageWindow).studio)),
    ).toBe(true);
  });

  it('pushes backend events to page listeners', async () => {
    await view.page.evaluate(() => {
      const seen: unknown[] = [];
      (globalThis as unknown as { __seen: unknown[] }).__seen = seen;
      (globalThis as unknown as PageWindow).studio.on('settings.changed', (s) => seen.push(s.theme));
    });
    await rig.call('settings.update', { theme: 'dark' });
    await expect
      .poll(() => view.page.evaluate(() => (globalThis as unknown as { __seen: unknown[] }).__seen))
      .toEqual(['dark']);
  });

  it('maps a dropped file to the on-disk path the test registered', async () => {
    const path = await writePicture(rig.filesDir, 'face.png', 64, 48);
    await dropFiles(view.page, view.page.locator('#drop'), [{ path }]);
    const drops = await view.page.evaluate(() => (globalThis as unknown as { __drops: unknown[] }).__drops);
    expect(drops).toEqual([{ name: 'face.png', size: expect.any(Number), type: 'image/png', path }]);
  });

  it('serves library media with byte ranges and nothing outside the library', async () => {
    await writeFile(join(rig.libraryDir, 'clip.wav'), Buffer.alloc(1000, 7));
    const whole = await fetch(`${rig.server.mediaBaseUrl}clip.wav`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/wav');
    expect((await whole.arrayBuffer()).byteLength).toBe(1000);
    const part = await fetch(`${rig.server.mediaBaseUrl}clip.wav`, { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    for (const bad of ['..%2Fsettings.json', '%2E%2E/user-data', 'library.sqlite', 'nothing.png']) {
      expect((await fetch(`${rig.server.mediaBaseUrl}${bad}`)).status, bad).toBe(404);
    }
  });
});
