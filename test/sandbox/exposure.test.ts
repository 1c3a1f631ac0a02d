/**
 * The sandbox run locked, as the app runs its built-in one (controlAccess 'api-key', outbound
 * 'loopback-only', crossSite 'refuse'), over real HTTP on 127.0.0.1: control paths want the
 * key (or are off), the ledger over HTTP shows no key and no pictures, requests from other
 * sites' pages are refused on every path, and the sandbox fetches only its own files and calls
 * no webhook (not even on this computer), in answers that tell nothing about other ports.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  parseSandboxArgs,
  SANDBOX_USAGE,
  type Sandbox,
  type SandboxOptions,
  SandboxUsageError,
} from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import { closedPort, type RawServer, startRawServer } from '../service/raw-http-server.ts';
import {
  getJson,
  KEY,
  pngBytes,
  pngDataUri,
  postJson,
  postTask,
  startTestSandbox,
  startWebhookReceiver,
  taskIdOf,
} from './sandbox-http.ts';

const LOCKED: SandboxOptions = { controlAccess: 'api-key', outbound: 'loopback-only', crossSite: 'refuse' };

const song = {
  model: MODELS.audio,
  task_type: 'txt2audio',
  input: { style_prompt: 'harbour folk', duration: 1 },
};

let sb: Sandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ ...LOCKED, webhookBackoffMs: 20, webhookAttempts: 1 });
});
afterAll(async () => {
  await sb?.stop();
});

async function control(path: string, init: RequestInit = {}) {
  const res = await fetch(`${sb.url}${path}`, init);
  return { status: res.status, text: await res.text() };
}

describe('control paths of a locked sandbox', () => {
  it('want the sandbox key: none or a wrong one is 401, and the faults stay as they were', async () => {
    expect((await control('/_sandbox/ledger')).status).toBe(401);
    expect((await control('/_sandbox/ledger', { headers: { 'x-api-key': 'guess' } })).status).toBe(401);
    const put = (key: string | null) =>
      control('/_sandbox/faults', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
        body: JSON.stringify({ serverErrorRate: 1 }),
      });
    expect((await put(null)).status).toBe(401);
    expect((await put('guess')).status).toBe(401);
    const faults = await control('/_sandbox/faults', { headers: { 'x-api-key': KEY } });
    expect(JSON.parse(faults.text)).toEqual({ faults: {} });
    expect((await postTask(sb, song)).status).toBe(200); // no fault was switched on
    expect((await control('/_sandbox/ledger', { headers: { 'x-api-key': KEY } })).status).toBe(200);
  });

  it('answer 404 when switched off', async () => {
    const off = await startTestSandbox({ controlAccess: 'off' });
    try {
      const ledger = await fetch(`${off.url}/_sandbox/ledger`, { headers: { 'x-api-key': KEY } });
      expect(ledger.status).toBe(404);
      const faults = await fetch(`${off.url}/_sandbox/faults`, {
        method: 'PUT',
        headers: { 'x-api-key': KEY },
        body: '{"serverErrorRate":1}',
      });
      expect(faults.status).toBe(404);
    } finally {
      await off.stop();
    }
  });
});

describe('the ledger over HTTP', () => {
  it('shows neither the key, nor webhook secrets, nor the input pictures; ledger() in code keeps them', async () => {
    const target = await pngDataUri(300, 200, [10, 200, 90]);
    const swap = await pngDataUri(120, 120, [200, 10, 90]);
    const created = await postTask(sb, {
      model: MODELS.imageToolkit,
      task_type: 'face-swap',
      input: { target_image: target, swap_image: swap },
      config: { webhook_config: { endpoint: '', secret: 'hook-secret-123' } },
    });
    expect(created.status, created.text).toBe(200);
    const id = taskIdOf(created);
    const res = await control('/_sandbox/ledger', { headers: { 'x-api-key': KEY } });
    expect(res.text).not.toContain(KEY);
    expect(res.text).not.toContain('hook-secret-123');
    expect(res.text).not.toContain(target.slice(100, 400));
    const entry = JSON.parse(res.text).entries.find((e: { taskId: string }) => e.taskId === id);
    expect(entry).not.toHaveProperty('apiKey');
    expect(entry).toMatchObject({ model: MODELS.imageToolkit, taskType: 'face-swap' });
    expect(entry.body.input.target_image).toMatch(
      /^data:image\/png;base64,.*… \([\d,]+ characters, not shown\)$/,
    );
    expect(entry.body.input.target_image.length).toBeLessThan(120);
    expect(entry.body.config.webhook_config.secret).toBe('(not shown)');
    const full = sb.ledger().find((e) => e.taskId === id);
    expect(full?.apiKey).toBe(KEY);
    expect((full!.body as { input: { target_image: string } }).input.target_image).toBe(target);
  });
});

describe('requests from web pages of other sites', () => {
  const foreign = [
    { origin: 'https://evil.example' },
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site' },
  ];

  it('are answered 403 on every path, and change nothing', async () => {
    const before = sb.ledger().length;
    for (const headers of foreign) {
      const create = await fetch(`${sb.url}/api/v1/task`, {
        method: 'POST',
        headers: { ...headers, 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify(song),
      });
      expect(create.status).toBe(403);
      // a "simple" cross-site form post to the faults, even with the key
      const faults = await fetch(`${sb.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { ...headers, 'x-api-key': KEY, 'content-type': 'text/plain' },
        body: '{"serverErrorRate":1}',
      });
      expect(faults.status).toBe(403);
      for (const path of ['/_sandbox/ledger', '/account/info', '/files/x/y.png', '/nowhere']) {
        const res = await fetch(`${sb.url}${path}`, { headers: { ...headers, 'x-api-key': KEY } });
        expect(res.status, path).toBe(403);
        expect(await res.text()).toContain('requests from web pages of other sites are refused');
      }
    }
    expect(sb.ledger().length).toBe(before);
    expect((await control('/_sandbox/faults', { headers: { 'x-api-key': KEY } })).text).toBe('{"faults":{}}');
  });

  it('are answered as usual with the sandbox’s own Origin, same-origin, or no such header', async () => {
    for (const headers of [{ origin: sb.url }, { 'sec-fetch-site': 'same-origin' }, {}]) {
      const res = await fetch(`${sb.url}/account/info`, { headers: { ...headers, 'x-api-key': KEY } });
      expect(res.status).toBe(200);
    }
  });
});

describe('what a loopback-only sandbox fetches and calls', () => {
  let other: RawServer;
  let silent: Server;
  let silentPort = 0;
  beforeAll(async () => {
    other = await startRawServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }).end(await pngBytes(32, 32));
    });
    silent = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await other?.close();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  const faceSwap = async (target: string) =>
    postTask(sb, {
      model: MODELS.imageToolkit,
      task_type: 'face-swap',
      input: { target_image: target, swap_image: await pngDataUri(32, 32) },
    });

  it('refuses image URLs that are not its own with a 400 naming the field, fetching nothing', async () => {
    const answer = await faceSwap(`${other.url}/face.png`);
    expect(answer.status).toBe(400);
    expect(answer.json.message).toBe(
      `input.target_image: could not download the image from ${other.url}/face.png: the demo sandbox fetches only its own files (uploads and results)`,
    );
    expect(other.requests).toEqual([]);
    expect(other.connections()).toBe(0);
  });

  it('answers alike for a server, a closed port, a silent port and another machine', async () => {
    const closed = await closedPort();
    const urls = [
      `${other.url}/face.png`,
      `http://127.0.0.1:${closed}/face.png`,
      `http://127.0.0.1:${silentPort}/face.png`,
      'http://10.255.255.1/face.png',
      `http://localhost:${other.url.split(':').pop()}/face.png`,
    ];
    const started = Date.now();
    const messages = new Set<string>();
    for (const url of urls) {
      const answer = await faceSwap(url);
      expect(answer.status).toBe(400);
      messages.add(String(answer.json.message).replace(url, '<url>'));
    }
    expect([...messages]).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(3_000); // nothing waited on a connection
  });

  it('fetches its own uploads', async () => {
    const upload = await postJson(sb, '/api/ephemeral_resource', {
      file_name: 'me.png',
      file_data: (await pngBytes(64, 48)).toString('base64'),
    });
    expect(upload.status, upload.text).toBe(200);
    const answer = await faceSwap(upload.json.data.url);
    expect(answer.status, answer.text).toBe(200);
  });

  it('calls no webhook at all, this computer’s included: any endpoint is a 400 naming the field', async () => {
    const receiver = await startWebhookReceiver();
    try {
      for (const endpoint of [
        'https://hooks.example.com/in',
        'http://10.0.0.5/hook',
        'http://169.254.169.254/',
        `${receiver.url}/hook`,
        `http://localhost:${new URL(receiver.url).port}/hook`,
      ]) {
        const answer = await postTask(sb, { ...song, config: { webhook_config: { endpoint, secret: 's' } } });
        expect(answer.status).toBe(400);
        expect(answer.json.message).toBe(
          'config.webhook_config.endpoint: the demo sandbox sends no webhooks (it runs on this computer, where a webhook could reach any local program); leave the webhook endpoint empty in demo mode',
        );
      }
      // an empty endpoint is no webhook: the task is taken
      const plain = await postTask(sb, { ...song, config: { webhook_config: { endpoint: '', secret: '' } } });
      expect(plain.status, plain.text).toBe(200);
      expect(receiver.received).toEqual([]);
      expect(sb.webhookDeliveries()).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('an open sandbox (the developer tool default) and its flags', () => {
  let open: Sandbox;
  afterEach(async () => {
    await open?.stop();
  });

  it('fetches another loopback server and lets control paths in without a key, the ledger still redacted', async () => {
    const files = await startRawServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }).end(await pngBytes(32, 32));
    });
    try {
      open = await startTestSandbox();
      const created = await postTask(open, {
        model: MODELS.imageToolkit,
        task_type: 'face-swap',
        input: { target_image: `${files.url}/face.png`, swap_image: await pngDataUri(32, 32) },
      });
      expect(created.status, created.text).toBe(200);
      expect(files.requests).toHaveLength(1);
      const ledger = await getJson(open, '/_sandbox/ledger', null);
      expect(ledger.status).toBe(200);
      expect(ledger.text).not.toContain(KEY);
    } finally {
      await files.close();
    }
  });

  it('parses --control, --outbound and --cross-site, refuses other values, and documents them', () => {
    expect(
      parseSandboxArgs(['--control', 'api-key', '--outbound=loopback-only', '--cross-site', 'refuse']),
    ).toMatchObject(LOCKED);
    expect(() => parseSandboxArgs(['--control', 'closed'])).toThrow(SandboxUsageError);
    expect(() => parseSandboxArgs(['--outbound', 'none'])).toThrow(
      /--outbound must be 'any', 'loopback-only'/,
    );
    for (const flag of ['--control api-key', '--outbound loopback-only', '--cross-site refuse']) {
      expect(SANDBOX_USAGE).toContain(flag);
    }
  });
});
