/**
 * Result downloads against a raw HTTP server on 127.0.0.1 playing the service: under the hosted
 * profile no download reaches an address inside the user's network (by IP, by name or through
 * a redirect), loops, silent servers and slow drips end `failed` in bounded time with a
 * sentence, a task with 20,000 outputs is refused, the results of one task together are
 * capped in bytes, a picture whose header claims 99,000,000 x 1 px is saved without being
 * decoded for a thumbnail, the sandbox profile downloads from loopback, and a failed download
 * can be tried again. Real HTTP, a real library.
 */
import { readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineOptions, TaskEngine } from '../../src/core/engine/index.ts';
import { hostedProfile, sandboxProfile, type Task } from '../../src/shared/index.ts';
import { closedPort, type RawServer, startRawServer } from '../service/raw-http-server.ts';
import { hugePng } from '../support/oversized-pictures.ts';
import {
  API_KEY,
  openEngine,
  removeDir,
  SONG,
  songRecord,
  tempDir,
  WAV,
  waitForState,
} from './engine-fixtures.ts';

const TASK_ID = '5b0c3c2e-9d3a-4f0e-8d61-2a7b1f4c9e11';
/** Small limits, so every failure ends within seconds. */
const LIMITS = { idleMs: 500, totalMs: 1_500, attempts: 2, backoffMs: 50 };

let service: RawServer | null = null;
let internal: RawServer | null = null;
let engine: TaskEngine | null = null;
let dir = '';
const timers = new Set<NodeJS.Timeout>();

afterEach(async () => {
  for (const t of timers) clearInterval(t);
  timers.clear();
  await engine?.close();
  await service?.close();
  await internal?.close();
  if (dir) await removeDir(dir);
  engine = null;
  service = null;
  internal = null;
});

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The real service's record of the task, with `output` once completed. */
function record(status: string, output: Record<string, unknown> | null) {
  return songRecord(TASK_ID, status, {
    config: { service_mode: '', webhook_config: { endpoint: '', secret: '' } },
    input: { style_prompt: 'lofi', duration: 5 },
    output,
    meta: { created_at: '2025-06-11T11:43:31.673594+08:00', usage: { type: 'llm', frozen: 0, consume: 0 } },
  });
}

/** Answers of the service's file paths, by path. */
type FileRoutes = Record<string, (res: ServerResponse, count: number) => void>;

/** A WAV file answer. */
function wav(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': WAV.length });
  res.end(WAV);
}

/**
 * Starts the service (completed at once with `output(serviceUrl, internalUrl)`) and a second
 * server on 127.0.0.1 standing for something inside the network (it serves a WAV at any path).
 */
async function startService(
  output: (serviceUrl: string, internalUrl: string) => unknown,
  files: FileRoutes = {},
) {
  internal = await startRawServer((_req, res) => wav(res));
  const counts = new Map<string, number>();
  service = await startRawServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/v1/task') return json(res, 200, record('pending', null));
    if (req.url === `/api/v1/task/${TASK_ID}`) {
      return json(
        res,
        200,
        record('completed', output(service!.url, internal!.url) as Record<string, unknown>),
      );
    }
    const route = files[req.url];
    if (route) {
      const count = (counts.get(req.url) ?? 0) + 1;
      counts.set(req.url, count);
      return route(res, count);
    }
    json(res, 404, { code: 404, message: 'not found' });
  });
}

async function open(profile: 'hosted' | 'sandbox', extra: Partial<EngineOptions> = {}): Promise<TaskEngine> {
  dir = await tempDir('mts-download-guard-');
  const baseUrl = service!.url;
  engine = await openEngine(`${dir}/lib`, null, {
    service: { baseUrl, apiKey: API_KEY },
    profile: profile === 'hosted' ? hostedProfile() : sandboxProfile(baseUrl),
    downloads: LIMITS,
    // the stand-in records every request: no reading of what runs at the service
    serviceLoadIntervalMs: 0,
    ...extra,
  });
  return engine;
}

/** Queues a song and waits until it ends; returns it and how long the download part took. */
async function runToEnd(e: TaskEngine, timeoutMs = 15_000): Promise<{ task: Task; ms: number }> {
  const queued = await e.queueTask(SONG);
  await waitForState(e, queued.id, ['downloading', 'saved', 'failed', 'expired'], timeoutMs);
  const started = Date.now();
  const task = await waitForState(e, queued.id, ['saved', 'failed', 'expired'], timeoutMs);
  return { task, ms: Date.now() - started };
}

function fileRequests(server: RawServer | null): string[] {
  return (server?.requests ?? []).map((r) => r.url).filter((u) => !u.startsWith('/api/'));
}

/** No message of the library's own: error codes and undici's words never reach the user. */
function expectReadable(message: string | null | undefined): void {
  expect(message).toMatch(/^The result could not be downloaded: /);
  expect(message).not.toMatch(/UND_ERR|ECONN|ENOTFOUND|undici|Error:|timeout error/i);
}

describe('downloads under the hosted profile refuse addresses inside the network', () => {
  it('refuses loopback, private and link-local outputs (by IP, IPv6 forms or a name) without connecting', async () => {
    await startService((serviceUrl, internalUrl) => {
      const port = new URL(internalUrl).port;
      return {
        audio_url: `${serviceUrl.replace('127.0.0.1', 'localhost')}/files/song.wav`,
        image_urls: [
          `http://127.0.0.1:${port}/a.png`,
          `http://[::1]:${port}/b.png`,
          `http://[::ffff:127.0.0.1]:${port}/c.png`,
          `http://0.0.0.0:${port}/d.png`,
          'http://169.254.169.254/latest/meta-data/e.png',
          'http://10.0.0.1/f.png',
          'http://100.64.0.1/g.png',
          'http://192.168.1.1/h.png',
        ],
      };
    });
    const e = await open('hosted');
    const { task, ms } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expect(task.outputs).toHaveLength(9);
    for (const output of task.outputs) {
      expect(output.state).toBe('failed');
      expectReadable(output.error);
      expect(output.error).toMatch(/points inside your network/);
    }
    expect(task.outputs[0]?.error).toContain('(localhost)');
    expect(task.error).toMatchObject({ kind: 'download' });
    expect(task.error?.message).toMatch(/points inside your network/);
    // nothing was fetched: neither the service's port under another name, nor the internal server
    expect(fileRequests(service)).toEqual([]);
    expect(internal!.connections()).toBe(0);
    expect(ms).toBeLessThan(5_000); // refused at once, not tried again
  });

  it('refuses a redirect to loopback or to a non-web address, fetching nothing there', async () => {
    await startService(
      (serviceUrl) => ({
        image_urls: [
          `${serviceUrl}/files/to-internal.png`,
          `${serviceUrl}/files/to-name.png`,
          `${serviceUrl}/files/to-file.png`,
        ],
      }),
      {
        '/files/to-internal.png': (res) => {
          res.writeHead(302, { location: `${internal!.url}/secret.png` });
          res.end();
        },
        '/files/to-name.png': (res) => {
          res.writeHead(307, { location: `http://localhost:${internal!.port}/secret.png` });
          res.end();
        },
        '/files/to-file.png': (res) => {
          res.writeHead(301, { location: 'file:///etc/passwd' });
          res.end();
        },
      },
    );
    const e = await open('hosted');
    const { task } = await runToEnd(e);
    expect(task.state).toBe('failed');
    const [toInternal, toName, toFile] = task.outputs;
    expect(toInternal?.error).toMatch(/points inside your network \(127\.0\.0\.1\)/);
    expect(toName?.error).toMatch(/points inside your network \(localhost\)/);
    expect(toFile?.error).toMatch(/redirected to an address that is not a web address/);
    for (const o of task.outputs) expectReadable(o.error);
    expect(internal!.connections()).toBe(0);
  });

  it('downloads an output served from the service’s own address', async () => {
    await startService((serviceUrl) => ({ audio_url: `${serviceUrl}/files/song.wav` }), {
      '/files/song.wav': (res) => wav(res),
    });
    const e = await open('hosted');
    const { task } = await runToEnd(e);
    expect(task.state).toBe('saved');
    expect(task.outputs[0]).toMatchObject({ state: 'saved', mime: 'audio/wav' });
  });
});

describe('downloads end in bounded time with a sentence', () => {
  it('a redirect loop, and a chain of redirects too long, fail at the first try', async () => {
    await startService(
      (serviceUrl) => ({ image_urls: [`${serviceUrl}/files/loop.png`, `${serviceUrl}/files/hop-0.png`] }),
      {
        '/files/loop.png': (res) => {
          res.writeHead(302, { location: '/files/loop.png' });
          res.end();
        },
        ...Object.fromEntries(
          Array.from({ length: 20 }, (_, i) => [
            `/files/hop-${i}.png`,
            (res: ServerResponse) => {
              res.writeHead(302, { location: `/files/hop-${i + 1}.png` });
              res.end();
            },
          ]),
        ),
      },
    );
    const e = await open('hosted');
    const { task, ms } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expect(task.outputs[0]?.error).toMatch(/redirects in a loop/);
    expect(task.outputs[1]?.error).toMatch(/redirected more than 5 times/);
    for (const o of task.outputs) expectReadable(o.error);
    expect(fileRequests(service).filter((u) => u === '/files/loop.png')).toHaveLength(1);
    expect(fileRequests(service).filter((u) => u.startsWith('/files/hop-'))).toHaveLength(6);
    expect(ms).toBeLessThan(5_000);
  });

  it('a server that never answers fails after the tries, saying it sent nothing', async () => {
    await startService((serviceUrl) => ({ audio_url: `${serviceUrl}/files/silent.wav` }), {
      '/files/silent.wav': () => undefined, // headers never come
    });
    const e = await open('hosted');
    const { task, ms } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expectReadable(task.outputs[0]?.error);
    expect(task.outputs[0]?.error).toMatch(/its server sent nothing for 1 second/);
    expect(fileRequests(service)).toEqual(['/files/silent.wav', '/files/silent.wav']);
    expect(ms).toBeLessThan(10_000);
  });

  it('a slow drip of bytes fails at the total time limit', async () => {
    await startService((serviceUrl) => ({ audio_url: `${serviceUrl}/files/drip.wav` }), {
      '/files/drip.wav': (res) => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        let at = 0;
        const timer = setInterval(() => {
          res.write(WAV.subarray(at, at + 1));
          at += 1;
        }, 100);
        timers.add(timer);
        res.on('close', () => clearInterval(timer));
      },
    });
    const e = await open('hosted');
    const { task, ms } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expectReadable(task.outputs[0]?.error);
    expect(task.outputs[0]?.error).toMatch(/it took longer than 2 seconds, the limit for one download/);
    expect(fileRequests(service)).toHaveLength(2);
    expect(ms).toBeLessThan(10_000);
  });

  it('a refused connection fails with words, not error codes (sandbox profile, so loopback is allowed)', async () => {
    const port = await closedPort();
    await startService(() => ({ audio_url: `http://127.0.0.1:${port}/song.wav` }));
    const e = await open('sandbox');
    const { task } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expectReadable(task.outputs[0]?.error);
    expect(task.outputs[0]?.error).toMatch(/refused the connection/);
  });
});

describe('outputs per task, the sandbox profile, and trying again', () => {
  it('refuses a completed task with 20,000 outputs: the task fails and nothing is downloaded', async () => {
    await startService((serviceUrl) => ({
      image_urls: Array.from({ length: 20_000 }, (_, i) => `${serviceUrl}/files/${i}.png`),
    }));
    const e = await open('hosted');
    const queued = await e.queueTask(SONG);
    const task = await waitForState(e, queued.id, ['failed', 'saved', 'downloading']);
    expect(task.state).toBe('failed');
    expect(task.error?.kind).toBe('too-many-outputs');
    expect(task.error?.message).toMatch(/returned 20000 results for this task; the app accepts at most 50/);
    expect(task.outputs).toEqual([]);
    expect(fileRequests(service)).toEqual([]);
  });

  it('downloads a loopback output under the sandbox profile, as the built-in sandbox needs', async () => {
    await startService((_s, internalUrl) => ({ audio_url: `${internalUrl}/song.wav` }));
    const e = await open('sandbox');
    const { task } = await runToEnd(e);
    expect(task.state).toBe('saved');
    expect(internal!.requests.map((r) => r.url)).toEqual(['/song.wav']);
  });

  it('retryDownloads tries a failed download again, and says so when there is none to retry', async () => {
    let healthy = false;
    await startService((serviceUrl) => ({ audio_url: `${serviceUrl}/files/flaky.wav` }), {
      '/files/flaky.wav': (res) => {
        if (healthy) return wav(res);
        json(res, 503, { message: 'busy' });
      },
    });
    const e = await open('hosted');
    const { task } = await runToEnd(e);
    expect(task.state).toBe('failed');
    expect(task.outputs[0]?.error).toMatch(/its server answered HTTP 503/);
    expect(fileRequests(service)).toHaveLength(2); // the limit of tries
    healthy = true;
    const again = e.retryDownloads(task.id);
    expect(again.state).toBe('completed');
    const saved = await waitForState(e, task.id, ['saved', 'failed']);
    expect(saved.state).toBe('saved');
    expect(saved.error).toBeNull();
    expect(() => e.retryDownloads(task.id)).toThrow(/no failed download to try again \(it is saved\)/);
  });
});

describe('how much one task may write, and pictures too large to decode', () => {
  const MB = 1_000_000;
  /** A "picture" of `bytes` bytes: a PNG signature, then zeros (its type is read from the start). */
  const bulk = (bytes: number) => {
    const b = Buffer.alloc(bytes);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    return b;
  };

  it('caps the bytes of all of a task’s results together: past the cap the rest fail, naming it', async () => {
    const serve =
      (declared: boolean) =>
      (res: ServerResponse): void => {
        const body = bulk(MB);
        if (declared) {
          res.writeHead(200, { 'content-type': 'image/png', 'content-length': body.length });
          res.end(body);
          return;
        }
        // no declared length: the bytes come in pieces, counted as they arrive
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let at = 0; at < body.length; at += 64_000) res.write(body.subarray(at, at + 64_000));
        res.end();
      };
    await startService(
      (serviceUrl) => ({ image_urls: [5, 1, 2, 3, 4].map((i) => `${serviceUrl}/files/${i}.png`) }),
      {
        '/files/5.png': (res) => {
          res.writeHead(200, { 'content-type': 'image/png' });
          res.end(bulk(2 * MB));
        },
        '/files/1.png': serve(true),
        '/files/2.png': serve(false),
        '/files/3.png': serve(false),
        '/files/4.png': serve(true),
      },
    );
    const e = await open('hosted', {
      maxOutputBytes: 1.5 * MB,
      downloads: { ...LIMITS, maxTaskBytes: 2.5 * MB },
    });
    const { task } = await runToEnd(e);
    const [fifth, first, second, third, fourth] = task.outputs;
    expect(first).toMatchObject({ state: 'saved', size: MB });
    expect(second).toMatchObject({ state: 'saved', size: MB });
    for (const o of [third, fourth]) {
      expect(o?.state).toBe('failed');
      expectReadable(o?.error);
      expect(o?.error).toBe(
        'The result could not be downloaded: the results of this task together would be larger than 2.5 MB, the most the app saves from one task.',
      );
    }
    // a file over the cap for one file says so (it counts for nothing toward the task's cap)
    expect(fifth?.error).toBe(
      'The result could not be downloaded: it is larger than 1.5 MB, the most the app saves of one file.',
    );
    expect(task.state).toBe('saved');
    expect(task.error?.message).toBe('3 of 5 outputs could not be saved');
    // what is on disk: the two results, nothing of the refused ones (no partial file left)
    const folder = join(dir, 'lib', first!.path!, '..');
    expect(
      readdirSync(folder)
        .filter((f) => f.startsWith('output-'))
        .sort(),
    ).toEqual(['output-2.png', 'output-3.png']);
    expect(readdirSync(join(dir, 'lib', '.partial'))).toEqual([]);
  });

  it('saves a picture whose header claims 99,000,000 x 1 px without decoding it: no thumbnail, the reason noted', async () => {
    const png = hugePng(99_000_000, 1);
    await startService((serviceUrl) => ({ image_urls: [`${serviceUrl}/files/wide.png`] }), {
      '/files/wide.png': (res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
        res.end(png);
      },
    });
    const e = await open('hosted');
    const { task, ms } = await runToEnd(e);
    expect(task.state).toBe('saved');
    expect(task.outputs[0]).toMatchObject({
      state: 'saved',
      mime: 'image/png',
      size: png.length,
      thumbPath: null,
      width: 99_000_000,
      height: 1,
      error:
        'no thumbnail: the picture is 99000000 x 1 px; the app decodes pictures of at most 16384 px a side and 67.1 million pixels',
    });
    expect(ms).toBeLessThan(5_000); // refused from the header, not after a decode
  });
});
