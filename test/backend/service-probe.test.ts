/**
 * What the window learns when it tests a key or an address with the balance call, and which
 * library it shows: `account.get` says `unreachable` (naming the address) when nothing answers,
 * apart from a refused key; the settings view names the library in use (demo mode's own, or the
 * user's). The refused key's words name no command-line variable.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_PROBLEM } from '../../src/core/engine/failure-outcomes.ts';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import type { EngineStatusView, StudioSettings } from '../../src/shared/index.ts';
import { closedPort, sendJson, startRawServer } from '../service/raw-http-server.ts';
import { openBackend, removeDir, tempDir } from './backend-fixtures.ts';

const KEY = 'probe-test-key-0123456789';

describe('testing a key and an address with the balance call', () => {
  let root: string;
  let sandbox: Sandbox;

  beforeAll(async () => {
    root = await tempDir();
    sandbox = await startSandbox({ apiKey: KEY, port: 0, timeScale: 0.02 });
  });

  afterAll(async () => {
    await sandbox.stop();
    await removeDir(root);
  });

  it('answers the balance, a refused key, and an address where nothing answers, each apart', async () => {
    const h = await openBackend(join(root, 'probe'));
    try {
      await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: sandbox.url });
      await h.ok('settings.setApiKey', { key: KEY });
      expect(await h.ok('account.get')).toMatchObject({ service: 'remote', balanceUsd: 10 });

      // a key the service refuses is not stored: the key in use stays (review s7b, defect 2)
      const refused = await h.call('settings.setApiKey', { key: 'not-the-key-0123456789' });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatchObject({ kind: 'unauthorized', field: 'key' });
      expect(await h.ok('account.get')).toMatchObject({ service: 'remote', balanceUsd: 10 });

      const wrong = `http://127.0.0.1:${await closedPort()}`;
      await h.ok('settings.update', { baseUrl: wrong });
      const unreachable = await h.call('account.get');
      expect(unreachable.ok).toBe(false);
      if (!unreachable.ok) {
        expect(unreachable.error.kind).toBe('unreachable');
        expect(unreachable.error.message).toBe(`could not reach ${wrong} (the connection was refused)`);
      }
      // the key stays stored
      expect((await h.ok<StudioSettings>('settings.get')).hasApiKey).toBe(true);
      // a key that cannot be checked (nothing answers: offline) is stored: the app works offline
      await h.ok('settings.setApiKey', { key: 'unchecked-key-0123456789' });
      expect(h.secrets.read()).toContain('unchecked-key-0123456789');
    } finally {
      await h.backend.close();
    }
  });

  it('keeps demo mode and no key when the service refuses a first key, saying so once (review s7b, defect 2)', async () => {
    const hosted = await startSandbox({ apiKey: KEY, port: 0, timeScale: 0.02, profile: 'hosted' });
    const h = await openBackend(join(root, 'refused-first'));
    try {
      await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: hosted.url });
      const before = await h.ok<StudioSettings>('settings.get');
      expect(before).toMatchObject({ demoMode: true, demoLibrary: true, hasApiKey: false });
      const refused = await h.call('settings.setApiKey', { key: 'wrong-key-123' });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.error).toMatchObject({ kind: 'unauthorized', field: 'key' });
        expect(refused.error.message).toBe(
          'The service refused this key: Invalid API key. Check that you copied the whole key from your account page.',
        );
      }
      expect(await h.ok<StudioSettings>('settings.get')).toMatchObject({
        demoMode: true,
        demoLibrary: true,
        hasApiKey: false,
        libraryInUse: before.libraryInUse,
      });
      expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('sandbox');
      expect(h.secrets.read()).toBeNull();
      expect(JSON.stringify([h.results, h.events, h.logs])).not.toContain('wrong-key-123');
    } finally {
      await h.backend.close();
      await hosted.stop();
    }
  });

  it('stores a key the plan refuses (403), and one whose check has no answer in 5 s, the whole check bounded (security review s7)', async () => {
    let answer: 'plan' | 'echo' | 'hang' = 'plan';
    const server = await startRawServer((req, res) => {
      if (answer === 'hang') return; // accepts, reads the request, never answers
      if (answer === 'echo')
        sendJson(res, 401, { code: 401, message: `no such key ${req.headers['x-api-key']}` });
      else sendJson(res, 403, { code: 403, message: 'Insufficient plan level' });
    });
    const h = await openBackend(join(root, 'plan-refused'));
    try {
      await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: server.url });
      await h.ok('settings.setApiKey', { key: 'plan-key-0123456789' });
      expect(h.secrets.read()).toContain('plan-key-0123456789');
      expect(server.requests[0]?.headers['x-api-key']).toBe('plan-key-0123456789');
      // a refusal that quotes the key back never carries it to the page or the log
      answer = 'echo';
      const refused = await h.call('settings.setApiKey', { key: 'echoed-key-0123456789' });
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatchObject({ kind: 'unauthorized', field: 'key' });
      expect(JSON.stringify([h.results, h.events, h.logs])).not.toContain('echoed-key-0123456789');
      expect(h.secrets.read()).toContain('plan-key-0123456789');
      answer = 'hang';
      const started = Date.now();
      await h.ok('settings.setApiKey', { key: 'slow-key-0123456789' });
      expect(Date.now() - started).toBeLessThan(8_000); // 5 s for the whole check, not 5 + 15 + 15
      expect(h.secrets.read()).toContain('slow-key-0123456789');
    } finally {
      await h.backend.close();
      await server.close();
    }
  }, 30_000);

  it("names the library in use: demo mode its own, else the user's", async () => {
    const dir = join(root, 'libraries');
    const h = await openBackend(dir);
    try {
      const demo = await h.ok<StudioSettings>('settings.update', { demoMode: true, firstRun: false });
      expect(demo).toMatchObject({
        demoLibrary: true,
        libraryInUse: join(dir, 'demo-library'),
        libraryDir: join(dir, 'library'),
      });
      const own = await h.ok<StudioSettings>('settings.update', { demoMode: false });
      expect(own).toMatchObject({ demoLibrary: false, libraryInUse: join(dir, 'library') });
      expect(own.notifySound).toBe(false);
      expect((await h.ok<StudioSettings>('settings.update', { notifySound: true })).notifySound).toBe(true);
    } finally {
      await h.backend.close();
    }
  });

  it('words the refused key for the app and the command line alike', () => {
    expect(AUTH_PROBLEM).toMatch(/^the service refused the API key/);
    expect(AUTH_PROBLEM).not.toMatch(/MEDIA_TASK_|Settings|command line/);
  });
});
