/**
 * The app's built-in sandbox (demo mode, started by the backend on 127.0.0.1) runs locked: any
 * other program or web page on this computer gets nothing from its control paths without the
 * key (which only the backend has), a request from another site's page is refused, it fetches
 * no image URL but its own and sends no webhook (the page could aim one at any local program);
 * tests reach its ledger in-process through `builtInSandbox()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { type RawServer, startRawServer } from '../service/raw-http-server.ts';
import { type Harness, openBackend, removeDir, SONG, tempDir, waitUntil } from './backend-fixtures.ts';

let dir: string;
let h: Harness;
let pictures: RawServer;
/** Another program listening on this computer, recording every request and connection. */
let listener: RawServer;

beforeAll(async () => {
  dir = await tempDir('mts-built-in-sandbox-');
  h = await openBackend(dir);
  pictures = await startRawServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end());
  listener = await startRawServer((_req, res) => res.writeHead(200).end());
});

afterAll(async () => {
  await h?.backend.close();
  await pictures?.close();
  await listener?.close();
  await removeDir(dir);
});

function sandboxUrl(): string {
  const url = h.backend.sandboxUrl();
  if (!url) throw new Error('the built-in sandbox is not running');
  return url;
}

describe('the built-in sandbox, seen from another program on this computer', () => {
  it('answers 401 on the ledger and the faults without its key, and keeps the faults', async () => {
    const ledger = await fetch(`${sandboxUrl()}/_sandbox/ledger`);
    expect(ledger.status).toBe(401);
    const faults = await fetch(`${sandboxUrl()}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ taskFailureRate: 1 }),
    });
    expect(faults.status).toBe(401);
    const task = await h.ok<Task>('tasks.queue', SONG);
    const saved = await waitUntil(async () => {
      const t = await h.ok<Task | null>('tasks.get', { id: task.id });
      return t && ['saved', 'failed'].includes(t.state) ? t : null;
    });
    expect(saved.state).toBe('saved');
    // the test reaches the ledger in-process, with what was sent
    const controls = h.backend.builtInSandbox();
    expect(controls?.url).toBe(sandboxUrl());
    expect(controls?.ledger().map((e) => e.taskId)).toContain(saved.remoteId);
  });

  it('refuses a request from another site’s web page with 403', async () => {
    const res = await fetch(`${sandboxUrl()}/api/v1/task`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ model: 'service/ace-step', task_type: 'txt2audio', input: {} }),
    });
    expect(res.status).toBe(403);
  });

  it('fetches no image URL but its own: a task pointing at another local server fails, naming the field', async () => {
    const task = await h.ok<Task>('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'upscale',
      input: { image: `${pictures.url}/photo.png`, scale: 2 },
    });
    const ended = await waitUntil(async () => {
      const t = await h.ok<Task | null>('tasks.get', { id: task.id });
      return t && ['saved', 'failed'].includes(t.state) ? t : null;
    });
    expect(ended.state).toBe('failed');
    expect(ended.error?.message).toMatch(/input\.image: .*the demo sandbox fetches only its own files/);
    expect(pictures.requests).toEqual([]);
  });

  it('sends no webhook the page asks for: the task fails saying why, and nothing reaches the local port', async () => {
    const task = await h.ok<Task>('tasks.queue', {
      ...SONG,
      webhook: { endpoint: `${listener.url}/admin/run`, secret: 'header-value-the-page-chose' },
    });
    const ended = await waitUntil(async () => {
      const t = await h.ok<Task | null>('tasks.get', { id: task.id });
      return t && ['saved', 'failed'].includes(t.state) ? t : null;
    });
    expect(ended.state).toBe('failed');
    expect(ended.error?.message).toMatch(
      /config\.webhook_config\.endpoint: the demo sandbox sends no webhooks \(it runs on this computer/,
    );
    // refused at create: no delivery was ever scheduled, so none can come later
    expect(h.backend.builtInSandbox()?.webhookDeliveries()).toEqual([]);
    expect(listener.requests).toEqual([]);
    expect(listener.connections()).toBe(0);
  });
});
