/**
 * A task's webhook secret goes to the service with the create and nowhere else (security
 * review, issue 17, item 9): no backend call result or event the page gets holds it (a task
 * says only whether one is set), an export's task.json has none, and a re-run keeps it without
 * the page ever reading it, for the same endpoint only; a task.json's secret is shown to the page
 * only as set, and main sends the one it read when the user keeps the webhook. Real backend, a real sandbox as the
 * user's custom service (it delivers webhooks), a recording webhook receiver on 127.0.0.1.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.ts';
import type { DraftView, ExportResult, Task, TaskFilePreview, TaskPage } from '../../src/shared/index.ts';
import { type RawServer, startRawServer } from '../service/raw-http-server.ts';
import {
  type Harness,
  openBackend,
  removeDir,
  SONG,
  savedTask,
  tempDir,
  waitUntil,
} from './backend-fixtures.ts';

const KEY = 'webhook-test-key-0123456789';
const SECRET = 'hook-secret-4f9e1c77d2';
let dir: string;
let service: Sandbox;
let receiver: RawServer;
let h: Harness;
let endpoint: string;
let task: Task;

beforeAll(async () => {
  dir = await tempDir('mts-webhook-secret-');
  service = await startSandbox({ apiKey: KEY, timeScale: 0.02, webhookBackoffMs: 20 });
  receiver = await startRawServer((_req, res) => res.writeHead(200).end());
  endpoint = `${receiver.url}/hook`;
  h = await openBackend(dir);
  await h.ok('settings.update', { serviceProfile: 'custom', baseUrl: service.url, demoMode: false });
  await h.ok('settings.setApiKey', { key: KEY });
  task = await h.ok<Task>('tasks.queue', { ...SONG, webhook: { endpoint, secret: SECRET } });
  await savedTask(h, task.id);
});

afterAll(async () => {
  await h?.backend.close();
  await service?.stop();
  await receiver?.close();
  await removeDir(dir);
});

/** The secret headers the receiver got, in order. */
const secretsDelivered = () => receiver.requests.map((r) => r.headers['x-webhook-secret']);

describe('a webhook secret', () => {
  it('is sent to the service, which hands it to the webhook', async () => {
    await waitUntil(() => receiver.requests.length >= 1, 'the webhook of the saved task');
    expect(secretsDelivered()[0]).toBe(SECRET);
  });

  it('is in no result or event the page gets: a task says only that one is set', async () => {
    const got = await h.ok<Task>('tasks.get', { id: task.id });
    expect(got.request.config).toEqual({ webhook_config: { endpoint, secret_set: true } });
    const page = await h.ok<TaskPage>('tasks.list', {});
    expect(page.items.find((t) => t.id === task.id)?.request.config).toEqual(got.request.config);
    await h.ok('tasks.events', { id: task.id });
    await h.ok('tasks.lineage', { id: task.id });
    await h.ok('tasks.rename', { id: task.id, title: 'renamed' });
    await h.ok('tasks.setFavorite', { id: task.id, favorite: true });
    const draft = await h.ok<DraftView>('tasks.draftOf', { id: task.id });
    expect(draft.webhook).toEqual({ endpoint, secret: '', sameSecretAs: task.id });
    expect(JSON.stringify(h.results)).not.toContain(SECRET);
    expect(h.events.length).toBeGreaterThan(0);
    expect(JSON.stringify(h.events)).not.toContain(SECRET);
  });

  it('is not written to an export’s task.json, which says one was set', async () => {
    h.dialogs.folder = join(dir, 'export');
    const exported = await h.ok<ExportResult>('tasks.export', { ids: [task.id] });
    const [folder] = exported.tasks;
    const sidecar = readFileSync(join(folder?.folder ?? '', 'task.json'), 'utf8');
    expect(sidecar).not.toContain(SECRET);
    expect(JSON.parse(sidecar).request.config).toEqual({ webhook_config: { endpoint, secret_set: true } });
    // the result's copy carries the task's parameters inside, never its webhook (issue 22, item 2)
    const result = folder?.files.find((f) => f.endsWith('.wav')) ?? '';
    const bytes = readFileSync(join(folder?.folder ?? '', result));
    expect(bytes.includes('media-task-studio')).toBe(true);
    expect(bytes.includes(SECRET)).toBe(false);
    expect(bytes.includes(endpoint)).toBe(false);
  });

  it('is kept by a re-run for the same endpoint, unseen by the page, and refused for another', async () => {
    // the window's re-run sends the draft's fields, never its file names (they are the library's own)
    const { fileNames: _names, ...draft } = await h.ok<DraftView>('tasks.draftOf', { id: task.id });
    const moved = await h.call('tasks.queue', {
      ...draft,
      webhook: { ...draft.webhook, endpoint: `${receiver.url}/elsewhere` },
      parentId: task.id,
      parentOutput: null,
    });
    expect(moved.ok).toBe(false);
    if (!moved.ok) {
      expect(moved.error.field).toBe('webhook_config.secret');
      expect(moved.error.message).toContain(
        'the secret of the task this re-runs is kept only for its own webhook endpoint',
      );
    }
    const rerun = await h.ok<Task>('tasks.queue', { ...draft, parentId: task.id, parentOutput: null });
    expect(rerun.request.config).toEqual({ webhook_config: { endpoint, secret_set: true } });
    await savedTask(h, rerun.id);
    await waitUntil(() => receiver.requests.length >= 2, 'the webhook of the re-run');
    expect(secretsDelivered()).toEqual([SECRET, SECRET]);
    expect(JSON.stringify(h.results)).not.toContain(SECRET);
  });

  it('in an imported task.json is shown only as set, and sent by main when the webhook is kept', async () => {
    const imported = 'hook-secret-of-a-task-json-91b3';
    const folder = join(dir, 'downloads', 'from-a-friend');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'task.json'),
      JSON.stringify({
        title: 'With its own webhook',
        request: {
          model: 'service/ace-step',
          task_type: 'txt2audio',
          input: { style_prompt: 'tide pools', duration: 4 },
          config: { webhook_config: { endpoint: `${receiver.url}/imported`, secret: imported } },
        },
      }),
    );
    h.dialogs.file = join(folder, 'task.json');
    const preview = await h.ok<TaskFilePreview>('tasks.readTaskFile', {});
    expect(preview.webhook).toEqual({ endpoint: `${receiver.url}/imported`, hasSecret: true });
    const before = receiver.requests.length;
    const queued = await h.ok<Task>('tasks.queueTaskFile', {
      importId: preview.importId,
      files: {},
      keepWebhook: true,
      acceptUnknownPrice: false,
    });
    expect(queued.request.config).toEqual({
      webhook_config: { endpoint: `${receiver.url}/imported`, secret_set: true },
    });
    await savedTask(h, queued.id);
    await waitUntil(() => receiver.requests.length > before, 'the webhook of the imported task');
    const delivered = receiver.requests.slice(before);
    expect(delivered.map((r) => [r.url, r.headers['x-webhook-secret']])).toEqual([['/imported', imported]]);
    expect(JSON.stringify(h.results)).not.toContain(imported);
    expect(JSON.stringify(h.events)).not.toContain(imported);
  });
});
