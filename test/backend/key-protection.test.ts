/**
 * The API key stays with the service it was stored for (security review, issue 8, items 1-2):
 * the page cannot send it elsewhere by changing the address, a settings file edited elsewhere
 * cannot either, http carries it only to this computer, and a key no header can carry is
 * refused before it is stored, while a bad one already stored never stops the app. Real
 * backend, real sandbox, a real "attacker" HTTP server on 127.0.0.1 that records every request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { EngineStatusView, StudioSettings, Task } from '../../src/shared/index.ts';
import { type RawServer, startRawServer } from '../service/raw-http-server.ts';
import { type Harness, openBackend, removeDir, SONG, savedTask, tempDir } from './backend-fixtures.ts';

const KEY = 'real-service-key-0123456789';
let root: string;
let service: Sandbox;
let attacker: RawServer;

beforeAll(async () => {
  root = await tempDir('mts-key-');
  service = await startSandbox({ apiKey: KEY, timeScale: 0.02 });
  attacker = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"code":200,"data":{"task_id":"stolen","status":"pending"},"message":"success"}');
  });
});

afterAll(async () => {
  await service?.stop();
  await attacker?.close();
  await removeDir(root);
});

const keysSeenByAttacker = () => attacker.requests.filter((r) => r.headers['x-api-key'] !== undefined);

async function userWithKey(name: string): Promise<Harness> {
  const h = await openBackend(join(root, name));
  await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: service.url });
  await h.ok('settings.setApiKey', { key: KEY, allowWeakStorage: true });
  return h;
}

/**
 * A user folder as an earlier version left it: settings for the sandbox (first run over), and the
 * key file holding `storedKey` bare; the backend opened on it again.
 */
async function storedByEarlierVersion(name: string, storedKey: string): Promise<Harness> {
  const dir = join(root, name);
  const first = await openBackend(dir);
  await first.ok('settings.update', {
    serviceProfile: 'custom',
    baseUrl: service.url,
    demoMode: false,
    firstRun: false,
  });
  await first.backend.close();
  writeFileSync(first.secrets.file, storedKey);
  return openBackend(dir);
}

describe('the key and the address it is sent to', () => {
  it('asks in a main-owned dialog before the page moves the key to another address, and keeps it when declined', async () => {
    const h = await userWithKey('page-moves');
    try {
      h.dialogs.confirmAnswer = false;
      const moved = await h.call('settings.update', { baseUrl: attacker.url });
      expect(moved.ok).toBe(false);
      if (!moved.ok) {
        expect(moved.error.kind).toBe('not-confirmed');
        expect(moved.error.message).toContain('your API key stays with');
      }
      expect(h.dialogs.confirmed.at(-1)?.message).toContain(new URL(attacker.url).origin);
      expect((await h.ok<StudioSettings>('settings.get')).baseUrl).toBe(service.url);
      // the page then tries to make the key travel: nothing reaches the other server
      await h.call('account.get');
      const task = await h.ok<Task>('tasks.queue', SONG);
      await savedTask(h, task.id, 'the song');
      expect(keysSeenByAttacker()).toHaveLength(0);
    } finally {
      await h.backend.close();
    }
  });

  it('moves the key when the user agrees in that dialog', async () => {
    const h = await userWithKey('user-moves');
    try {
      h.dialogs.confirmAnswer = true;
      await h.ok('settings.update', { baseUrl: attacker.url });
      await h.call('account.get');
      expect(keysSeenByAttacker().length).toBeGreaterThan(0);
    } finally {
      await h.backend.close();
      attacker.requests.length = 0;
    }
  });

  it('does not send the key to an address written into the settings file elsewhere, and says why', async () => {
    const h = await userWithKey('file-edited');
    await h.backend.close();
    writeFileSync(
      join(root, 'file-edited', 'settings.json'),
      JSON.stringify({ serviceProfile: 'custom', baseUrl: attacker.url, demoMode: false, firstRun: false }),
    );
    const again = await openBackend(join(root, 'file-edited'));
    try {
      const settings = await again.ok<StudioSettings>('settings.get');
      expect(settings.keyProblem).toMatch(/stored for http:\/\/127\.0\.0\.1:\d+, so it is not sent to/);
      expect((await again.ok<EngineStatusView>('engine.status')).service).toBe('none');
      const queued = await again.ok<Task>('tasks.queue', SONG);
      expect(queued.state).toBe('queued');
      await again.call('account.get');
      expect(keysSeenByAttacker()).toHaveLength(0);
    } finally {
      await again.backend.close();
    }
  });

  it('refuses http for an address that is not on this computer', async () => {
    const h = await openBackend(join(root, 'http'));
    try {
      for (const baseUrl of ['http://api.example.com', 'http://192.168.1.20:8080/api/v1']) {
        const r = await h.call('settings.update', { serviceProfile: 'custom', baseUrl });
        expect(r.ok).toBe(false);
        if (!r.ok)
          expect(r.error.message).toMatch(/https:\/\/ \(http:\/\/ is allowed only for this computer/);
      }
      const upload = await h.call('settings.update', { uploadUrl: 'http://upload.example.com/x' });
      expect(upload.ok).toBe(false);
    } finally {
      await h.backend.close();
    }
  });

  it('refuses http for a name under .localhost, which a DNS server may place on another computer', async () => {
    const h = await openBackend(join(root, 'http-dot-localhost'));
    try {
      const port = new URL(attacker.url).port;
      for (const baseUrl of [`http://evil.localhost:${port}`, 'http://foo.localhost/api']) {
        const r = await h.call('settings.update', { serviceProfile: 'custom', baseUrl });
        expect(r.ok, baseUrl).toBe(false);
        if (!r.ok) {
          expect(r.error.message).toContain(
            `"${new URL(baseUrl).hostname}" may be another computer: http:// is allowed only for localhost, 127.0.0.1 or [::1]`,
          );
        }
      }
      const upload = await h.call('settings.update', { uploadUrl: `http://up.localhost:${port}/x` });
      expect(upload.ok).toBe(false);
      // localhost itself and loopback addresses are still this computer
      for (const baseUrl of [
        `http://localhost:${port}`,
        `http://127.0.0.2:${port}`,
        `http://[::1]:${port}`,
      ]) {
        expect((await h.call('settings.update', { serviceProfile: 'custom', baseUrl })).ok, baseUrl).toBe(
          true,
        );
      }
      expect(keysSeenByAttacker()).toHaveLength(0);
    } finally {
      await h.backend.close();
    }
  });
});

describe('one rule for a key', () => {
  it('refuses a pasted key with a non-breaking space or a character no header can carry, naming the problem', async () => {
    const h = await openBackend(join(root, 'paste'));
    try {
      for (const [key, why] of [
        ['real-service\u00a0key-0123', /space/],
        ['real-service-kéy-0123', /character a key cannot have/],
        ['abc12', /too short/],
      ] as const) {
        const r = await h.call('settings.setApiKey', { key, allowWeakStorage: true });
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error.field).toBe('key');
          expect(r.error.message).toMatch(why);
          expect(r.error.message).not.toContain(key);
        }
      }
      expect((await h.ok<StudioSettings>('settings.get')).hasApiKey).toBe(false);
    } finally {
      await h.backend.close();
    }
  });

  it('starts with a bad key stored by an earlier version, says what is wrong, and queues locally', async () => {
    // an earlier version stored the bare key, with the space a paste brought along
    const h = await storedByEarlierVersion('legacy-bad', 'real-service key-0123456789');
    try {
      const settings = await h.ok<StudioSettings>('settings.get');
      expect(settings.hasApiKey).toBe(true);
      expect(settings.keyProblem).toMatch(/stored API key cannot be used: the API key contains a space/);
      expect((await h.ok<Task>('tasks.queue', SONG)).state).toBe('queued');
      // storing it again, right, fixes it
      await h.ok('settings.setApiKey', { key: KEY, allowWeakStorage: true });
      expect((await h.ok<StudioSettings>('settings.get')).keyProblem).toBeNull();
      expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('remote');
    } finally {
      await h.backend.close();
    }
  });

  it('ties a bare key stored by an earlier version to the address it is first used with', async () => {
    const h = await storedByEarlierVersion('legacy-good', KEY);
    try {
      expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('remote');
      expect(JSON.parse(readFileSync(h.secrets.file, 'utf8')).origin).toBe(new URL(service.url).origin);
    } finally {
      await h.backend.close();
    }
  });
});
