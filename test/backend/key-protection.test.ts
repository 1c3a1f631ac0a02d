/**
 * The API key stays with the addresses it was stored for (security review, issue 8, items 1-2,
 * and issue 17, item 1): the tasks, balance and upload addresses, compared in full. The page
 * cannot send it elsewhere by changing an address (another upload host, another path on the
 * same host), a settings file edited elsewhere cannot either, a key stored by an earlier version
 * is sent only once the user confirms, the page cannot raise the dialog more than a few times a
 * minute, http carries it only to this computer, and a key no header can carry is refused before
 * it is stored, while a bad one already stored never stops the app. Real backend, real sandbox,
 * a real "attacker" HTTP server on 127.0.0.1 that records every request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { startSandbox } from '../../src/sandbox/index.ts';
import type { EngineStatusView, KeyStorage, StudioSettings, Task } from '../../src/shared/index.ts';
import { type RawServer, startRawServer } from '../service/raw-http-server.ts';
import { FileKeyVault } from '../support/node-adapters.ts';
import {
  type Harness,
  openBackend,
  removeDir,
  SONG,
  savedTask,
  tempDir,
  writePng,
} from './backend-fixtures.ts';

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

/** Every address under the service's base URL the key is sent to, in the binding's order. */
const serviceAddresses = () =>
  ['/api/v1/task', '/account/info', '/api/open/tasks/histories', '/account/active_tasks'].map(
    (path) => `${service.url}${path}`,
  );

const keysSeenByAttacker = () => attacker.requests.filter((r) => r.headers['x-api-key'] !== undefined);

async function userWithKey(name: string): Promise<Harness> {
  const h = await openBackend(join(root, name));
  await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: service.url });
  await h.ok('settings.setApiKey', { key: KEY });
  return h;
}

/** A face swap of a picture the user dropped: a local file, uploaded where the profile uploads. */
async function faceSwapOfLocalPicture(h: Harness, name: string): Promise<Task> {
  const picture = await writePng(join(h.userDataDir, `${name}.png`), 64, 48);
  h.backend.grantDroppedFile(picture);
  return h.ok<Task>('tasks.queue', {
    model: 'service/image-toolkit',
    taskType: 'face-swap',
    input: { target_image: picture, swap_image: picture },
  });
}

/** The stored key file, as the backend wrote it. */
const storedKeyOf = (h: Harness) => JSON.parse(readFileSync(h.secrets.file, 'utf8'));

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
      expect(settings.keyProblem).toMatch(
        /stored for http:\/\/127\.0\.0\.1:\d+\/api\/v1\/task, http:\/\/127\.0\.0\.1:\d+\/account\/info, .*\/api\/open\/tasks\/histories and .*\/account\/active_tasks, so it is not sent to/,
      );
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
        const r = await h.call('settings.setApiKey', { key });
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
      await h.ok('settings.setApiKey', { key: KEY });
      expect((await h.ok<StudioSettings>('settings.get')).keyProblem).toBeNull();
      expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('remote');
    } finally {
      await h.backend.close();
    }
  });

  it('sends a key stored by an earlier version only once the user confirms where it goes', async () => {
    // the bare key of the first versions, and the origin-bound key of the one before this
    for (const [name, stored] of [
      ['legacy-good', KEY],
      ['legacy-origin', JSON.stringify({ v: 1, key: KEY, origin: new URL(service.url).origin })],
    ] as const) {
      const h = await storedByEarlierVersion(name, stored);
      try {
        expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('none');
        const settings = await h.ok<StudioSettings>('settings.get');
        expect(settings.keyProblem).toMatch(/stored by an earlier version of the app/);
        expect(settings.keyAddressesToConfirm).toEqual(serviceAddresses());
        expect(h.dialogs.confirmed).toHaveLength(0);
        // the user confirms in the dialog main owns, which names every address in full
        await h.ok('settings.confirmKeyAddresses');
        const question = h.dialogs.confirmed.at(-1)?.message ?? '';
        expect(question).toContain(`${service.url}/api/v1/task`);
        expect(question).toContain(`${service.url}/account/info`);
        expect(question).toContain(`Task history: ${service.url}/api/open/tasks/histories`);
        expect(question).toContain(`Running tasks: ${service.url}/account/active_tasks`);
        expect((await h.ok<EngineStatusView>('engine.status')).service).toBe('remote');
        expect(storedKeyOf(h)).toEqual({
          v: 2,
          key: KEY,
          addresses: serviceAddresses(),
        });
        expect((await h.ok<StudioSettings>('settings.get')).keyAddressesToConfirm).toBeNull();
      } finally {
        await h.backend.close();
      }
    }
  });
});

describe('every address the key is sent to (issue 17, item 1)', () => {
  const hostedUpload = () => `${service.url}/api/ephemeral_resource`;

  /** The key file of a system with a keyring, where storing the key asks nothing. */
  class KeyringVault extends FileKeyVault {
    override storage(): KeyStorage {
      return 'os';
    }
  }

  it('asks, naming the full address, before any of them changes: another upload host, another path on the same host', async () => {
    // the default hosted set-up (the hosted service played by the sandbox)
    const h = await openBackend(join(root, 'hosted-moves'), {
      hostedAddress: { baseUrl: service.url, uploadUrl: hostedUpload() },
      secrets: new KeyringVault(join(root, 'hosted-moves')),
    });
    try {
      await h.ok('settings.setApiKey', { key: KEY });
      h.dialogs.confirmAnswer = false;
      const moves = [
        // the same service host, its uploads sent elsewhere
        [
          { serviceProfile: 'custom', baseUrl: service.url, uploadUrl: `${attacker.url}/upload` },
          `${attacker.url}/upload`,
        ],
        // a path on the same host
        [
          { serviceProfile: 'custom', baseUrl: `${service.url}/elsewhere` },
          `${service.url}/elsewhere/api/v1/task`,
        ],
      ] as const;
      for (const [update, shown] of moves) {
        const asked = h.dialogs.confirmed.length;
        const r = await h.call('settings.update', update);
        expect(r.ok, JSON.stringify(update)).toBe(false);
        if (!r.ok) expect(r.error).toMatchObject({ kind: 'not-confirmed' });
        expect(h.dialogs.confirmed).toHaveLength(asked + 1);
        expect(h.dialogs.confirmed.at(-1)?.message).toContain(shown);
      }
      expect(await h.ok<StudioSettings>('settings.get')).toMatchObject({
        serviceProfile: 'hosted',
        uploadUrl: '',
      });
      // the custom service at the same address with no uploads sends the key nowhere new: no question
      const asked = h.dialogs.confirmed.length;
      await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: service.url });
      expect(h.dialogs.confirmed).toHaveLength(asked);
      // one field from the page: the upload address alone
      const upload = await h.call('settings.update', { uploadUrl: `${attacker.url}/upload` });
      expect(upload.ok).toBe(false);
      expect(h.dialogs.confirmed.at(-1)?.message).toContain(`${attacker.url}/upload`);
      const task = await faceSwapOfLocalPicture(h, 'page-moves-upload');
      await savedTask(h, task.id, 'the face swap');
      await h.call('account.get');
      expect(keysSeenByAttacker()).toHaveLength(0);
      // still tied to the addresses it was stored for, every one in full
      expect(storedKeyOf(h).addresses).toEqual([...serviceAddresses(), hostedUpload()]);
    } finally {
      await h.backend.close();
    }
  });

  it('never sends the key or a picture to an upload address written into the settings file elsewhere', async () => {
    attacker.requests.length = 0;
    const h = await userWithKey('file-upload');
    await h.backend.close();
    writeFileSync(
      join(root, 'file-upload', 'settings.json'),
      JSON.stringify({
        serviceProfile: 'custom',
        baseUrl: service.url,
        uploadUrl: `${attacker.url}/upload`,
        demoMode: false,
        firstRun: false,
      }),
    );
    const again = await openBackend(join(root, 'file-upload'));
    try {
      const task = await faceSwapOfLocalPicture(again, 'file-upload');
      await again.call('account.get');
      await again.backend.idle();
      expect(attacker.requests).toHaveLength(0);
      expect((await again.ok<Task>('tasks.get', { id: task.id }))?.state).toBe('queued');
      expect((await again.ok<EngineStatusView>('engine.status')).service).toBe('none');
      const settings = await again.ok<StudioSettings>('settings.get');
      expect(settings.keyProblem).toContain(`so it is not sent to ${attacker.url}/upload`);
      expect(settings.keyAddressesToConfirm).toContain(`${attacker.url}/upload`);
      // declining in the dialog changes nothing
      again.dialogs.confirmAnswer = false;
      const declined = await again.call('settings.confirmKeyAddresses');
      expect(declined.ok).toBe(false);
      expect(again.dialogs.confirmed.at(-1)?.message).toContain(`${attacker.url}/upload`);
      await again.backend.idle();
      expect(attacker.requests).toHaveLength(0);
    } finally {
      await again.backend.close();
    }
  });

  it('lets the page raise the dialog only a few times a minute', async () => {
    const h = await userWithKey('rate');
    try {
      h.dialogs.confirmAnswer = false;
      const refusals = [];
      for (let i = 1; i <= 5; i++)
        refusals.push(await h.call('settings.update', { uploadUrl: `${attacker.url}/upload-${i}` }));
      // storing the key asked once (no keyring here), then two address questions; the rest are refused unasked
      expect(h.dialogs.confirmed).toHaveLength(3);
      const last = refusals.at(-1);
      expect(last?.ok).toBe(false);
      if (last && !last.ok) {
        expect(last.error.kind).toBe('too-many-questions');
        expect(last.error.message).toMatch(/asked 3 times in the last minute; try again in a minute/);
      }
      expect((await h.ok<StudioSettings>('settings.get')).uploadUrl).toBe('');
    } finally {
      await h.backend.close();
    }
  });
});
