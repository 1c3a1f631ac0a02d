/** Test helpers: a sandbox on port 0, JSON calls to it, tiny real HTTP servers, test images. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/index.ts';
import { encodeWav16 } from '../../src/sandbox/media/wav-encode.ts';
import { MODELS } from '../../src/shared/index.ts';

export const KEY = 'test-key';

export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ apiKey: KEY, timeScale: 0.01, ...options });
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers field by field
  json: any;
}

async function toAnswer(res: Response): Promise<JsonAnswer> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The create body of a face swap of one picture (a data URI or URL) onto itself. */
export function selfFaceSwap(face: string) {
  return {
    model: MODELS.imageToolkit,
    task_type: 'face-swap',
    input: { target_image: face, swap_image: face },
  };
}

export async function postTask(sb: Sandbox, body: unknown, key: string | null = KEY): Promise<JsonAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['x-api-key'] = key;
  const res = await fetch(`${sb.url}/api/v1/task`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toAnswer(res);
}

export async function getTask(sb: Sandbox, id: string, key: string | null = KEY): Promise<JsonAnswer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-api-key'] = key;
  return toAnswer(await fetch(`${sb.url}/api/v1/task/${id}`, { headers }));
}

/** POSTs a JSON body to any sandbox path (e.g. the upload endpoint), with the key unless null. */
export async function postJson(
  sb: Sandbox,
  path: string,
  body: unknown,
  key: string | null = KEY,
): Promise<JsonAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['x-api-key'] = key;
  const res = await fetch(`${sb.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toAnswer(res);
}

/** GETs any sandbox path (e.g. `/account/info`), with the key unless null. */
export async function getJson(sb: Sandbox, path: string, key: string | null = KEY): Promise<JsonAnswer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers['x-api-key'] = key;
  return toAnswer(await fetch(`${sb.url}${path}`, { headers }));
}

/** The task id of any create answer form. */
export function taskIdOf(answer: JsonAnswer): string {
  return answer.json.data?.task_id ?? answer.json.task_id;
}

/** Status string of any fetch form. */
export function statusOf(answer: JsonAnswer): string {
  return answer.json.data.status;
}

/** Polls until the task is completed or failed. */
export async function waitForEnd(sb: Sandbox, id: string, timeoutMs = 8_000): Promise<JsonAnswer> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await getTask(sb, id);
    if (answer.status !== 200) throw new Error(`fetch answered ${answer.status}: ${answer.text}`);
    const status = statusOf(answer);
    if (status === 'completed' || status === 'failed') return answer;
    if (Date.now() > deadline) throw new Error(`task ${id} still ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export async function pngBytes(width: number, height: number, rgb: [number, number, number] = [200, 80, 40]) {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .png()
    .toBuffer();
}

export async function pngDataUri(width = 64, height = 64, rgb?: [number, number, number]): Promise<string> {
  return `data:image/png;base64,${(await pngBytes(width, height, rgb)).toString('base64')}`;
}

/**
 * A 16-bit PCM WAV of `seconds` whose every sample differs from its neighbours (two tones and a
 * seeded ripple), so a copy of it can be found sample for sample inside another file.
 */
export function wavBytes(seconds: number, sampleRate = 22050, channels = 1): Buffer {
  const frames = Math.round(seconds * sampleRate);
  const samples = new Int16Array(frames * channels);
  let seed = 12345;
  for (let i = 0; i < frames; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const t = i / sampleRate;
    const tone = 0.4 * Math.sin(2 * Math.PI * 220 * t) + 0.2 * Math.sin(2 * Math.PI * 331 * t);
    for (let c = 0; c < channels; c++) {
      const ripple = ((seed >> (8 + c)) % 2000) / 20000;
      samples[i * channels + c] = Math.round((tone + ripple) * 32767 * (c === 0 ? 1 : 0.5));
    }
  }
  return encodeWav16(samples, sampleRate, channels);
}

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<TestServer & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Serves fixed files by path: `{ '/face.png': { type, body } }`; anything else 404. */
export function startFileServer(files: Record<string, { type: string; body: Buffer | string }>) {
  return listenOnLoopback((req, res) => {
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type }).end(file.body);
  });
}

export interface ReceivedWebhook {
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: tests read payloads field by field
  body: any;
  at: number;
}

/** A webhook receiver answering the given statuses in turn (then 200). */
export async function startWebhookReceiver(statuses: number[] = []) {
  const received: ReceivedWebhook[] = [];
  const queue = [...statuses];
  const server = await listenOnLoopback((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        at: Date.now(),
      });
      res.writeHead(queue.shift() ?? 200).end();
    });
  });
  return { ...server, received };
}

export async function until(check: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
