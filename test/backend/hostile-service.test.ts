/**
 * A service that echoes the key and wraps its words in terminal control sequences (security
 * review, issue 17, items 5, 7 and 9), met through the backend as the window meets it: the
 * account name, an upload answer and a task's error reach no call result, event, log line or
 * library file with the key or a control character; an upload answer holding the key is not
 * used (the picture goes inline). A raw HTTP server on 127.0.0.1 plays the service.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountView, Task, TaskEvent } from '../../src/shared/index.ts';
import { type RawServer, sendJson, startRawServer } from '../service/raw-http-server.ts';
import { type Harness, openBackend, removeDir, tempDir, waitUntil, writePng } from './backend-fixtures.ts';

const KEY = 'hostile-test-key-4b7d9f1a3c5e';
const TASK_ID = '7c1e5a9b-3d2f-4e6a-8b0c-1f2e3d4c5b6a';
const OSC52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const HOSTILE = `${OSC52}\x1b]0;pwned\x1b\\\x1b[2J\x1b[K\x9b1m\x9d2;t\x9c\r`;
/** A control character raw, or JSON-escaped as JSON.stringify writes C0 ones. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]|\\u00[01][0-9a-f]|\\[rbf]/i;

let root: string;
let service: RawServer;
let h: Harness;

beforeAll(async () => {
  root = await tempDir('mts-hostile-');
  service = await startRawServer((req, res) => {
    const key = String(req.headers['x-api-key']);
    if (req.url === '/account/info') {
      return sendJson(res, 200, {
        code: 200,
        data: { account_name: `${HOSTILE}Ann ${key}${HOSTILE}`, credits: 10, equivalent_in_usd: 1 },
        message: 'success',
      });
    }
    if (req.url === '/upload') {
      return sendJson(res, 200, {
        code: 200,
        data: { url: `https://files.example.test/face.png?key=${key}` },
        message: `stored ${HOSTILE}`,
      });
    }
    const failed = req.method === 'GET';
    sendJson(res, 200, {
      code: 200,
      message: 'success',
      data: {
        task_id: TASK_ID,
        model: 'Qubico/image-toolkit',
        task_type: 'face-swap',
        status: failed ? `failed${HOSTILE}` : 'pending',
        input: {},
        output: null,
        meta: {},
        logs: null,
        error: failed
          ? { code: 500, message: `${HOSTILE}face not found for ${key}`, raw_message: key, detail: null }
          : null,
      },
    });
  });
  h = await openBackend(join(root, 'user'));
  await h.ok('settings.update', {
    serviceProfile: 'custom',
    baseUrl: service.url,
    uploadUrl: `${service.url}/upload`,
  });
  await h.ok('settings.setApiKey', { key: KEY });
});

afterAll(async () => {
  await h?.backend.close();
  await service?.close();
  if (root) await removeDir(root);
});

describe('what a hostile service says, through the backend', () => {
  it('shows the account name as words, without the key', async () => {
    const account = await h.ok<AccountView>('account.get');
    expect(account.accountName).toBe('Ann [redacted]');
  });

  it('does not use an upload answer holding the key, and shows a failed task’s error as words', async () => {
    const picture = await writePng(join(root, 'face.png'), 64, 48);
    h.backend.grantDroppedFile(picture);
    const queued = await h.ok<Task>('tasks.queue', {
      model: 'image-toolkit',
      taskType: 'face-swap',
      input: { target_image: picture, swap_image: picture },
    });
    const failed = await waitUntil(
      async () => {
        const t = await h.ok<Task | null>('tasks.get', { id: queued.id });
        return t?.state === 'failed' ? t : null;
      },
      'the task to fail',
      10_000,
    );
    expect(failed.error?.message).toBe(
      'the service could not complete the task: face not found for [redacted]',
    );
    expect(failed.remoteStatus).toBe('failed');
    // the picture went inline: the create names no address the upload answered
    const uploads = service.requests.filter((r) => r.url === '/upload');
    expect(uploads.length).toBeGreaterThan(0);
    const create = service.requests.find((r) => r.method === 'POST' && r.url === '/api/v1/task');
    expect(create?.body).not.toContain('files.example.test');
    expect(JSON.parse(create?.body ?? '{}').input.target_image).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const events = await h.ok<TaskEvent[]>('tasks.events', { id: queued.id });
    expect(JSON.stringify(events)).toContain(
      'the upload failed (The upload endpoint answered an address that cannot be used: it holds the API key.)',
    );
  });

  it('leaves the key and control characters out of every result, event, log line and library file', async () => {
    const everything = JSON.stringify([h.results, h.events, h.logs]);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toMatch(CONTROL);
    const libraryDir = h.backend.libraryDir();
    const db = new DatabaseSync(join(libraryDir, 'library.sqlite'), { readOnly: true });
    try {
      const rows = ['tasks', 'task_inputs', 'task_events', 'settings'].map((table) =>
        db.prepare(`SELECT * FROM ${table}`).all(),
      );
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(KEY);
      expect(stored).not.toMatch(CONTROL);
    } finally {
      db.close();
    }
    await h.backend.close();
    for (const file of readdirSync(libraryDir).filter((f) => f.startsWith('library.sqlite'))) {
      expect(readFileSync(join(libraryDir, file)).includes(KEY), file).toBe(false);
    }
  });
});
