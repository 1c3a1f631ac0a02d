/**
 * A service that answers a create with the task id another local task already has: the new
 * task becomes uncertain (it may have been created and billed) with a message naming the other
 * task, and the other task is left as it was. Real HTTP on 127.0.0.1, a real library.
 */
import { describe, expect, it } from 'vitest';
import { sendJson, startRawServer } from '../service/raw-http-server.ts';
import {
  API_KEY,
  openEngine,
  songRecord,
  standInClosedAfterEach,
  tempDir,
  waitForState,
} from './engine-fixtures.ts';

const TASK_ID = '5d7e3c1a-2b4f-4c6d-8e9f-0a1b2c3d4e5f';

const open = standInClosedAfterEach();

/** The one task this server knows, still running. */
function pendingRecord() {
  return songRecord(TASK_ID, 'pending', {
    input: {},
    output: null,
    meta: { created_at: '2025-06-11T11:43:31Z', usage: { type: 'llm', frozen: 2500, consume: null } },
  });
}

const song = (style: string) => ({
  model: 'ace-step',
  taskType: 'txt2audio',
  input: { style_prompt: style, duration: 5 },
  title: style,
});

describe('a create answered with another task’s id', () => {
  it('makes the new task uncertain, names the other task, and leaves that one untouched', async () => {
    // every create is answered with the same task id
    const server = await startRawServer((req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1/task') return sendJson(res, 200, pendingRecord());
      if (req.method === 'GET' && req.url === `/api/v1/task/${TASK_ID}`)
        return sendJson(res, 200, pendingRecord());
      sendJson(res, 404, { code: 404, message: 'not found' });
    });
    open.server = server;
    const dir = await tempDir();
    open.dir = dir;
    const engine = await openEngine(dir, null, { service: { baseUrl: server.url, apiKey: API_KEY } });
    open.engine = engine;
    const first = await engine.queueTask(song('first song'));
    const running = await waitForState(engine, first.id, ['pending', 'uncertain', 'failed']);
    expect(running.state).toBe('pending');
    expect(running.remoteId).toBe(TASK_ID);
    const eventsBefore = engine.store.events(first.id);

    const second = await engine.queueTask(song('second song'));
    const third = await engine.queueTask(song('third song'));
    for (const id of [second.id, third.id]) {
      const clashed = await waitForState(engine, id, ['uncertain', 'failed', 'pending', 'processing']);
      expect(clashed.state).toBe('uncertain');
      expect(clashed.remoteId).toBeNull();
      expect(clashed.error?.kind).toBe('uncertain');
      expect(clashed.error?.message).toContain(`task id ${TASK_ID}`);
      expect(clashed.error?.message).toContain(`“first song” (${first.id})`);
      expect(clashed.error?.message).toMatch(/may have created \(and billed\) this task/);
    }
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(3);

    // the task that has the id is as it was: same state, id, no error, no new event
    const after = engine.store.getTask(first.id);
    expect(after?.state).toBe('pending');
    expect(after?.remoteId).toBe(TASK_ID);
    expect(after?.error).toBeNull();
    expect(after?.title).toBe('first song');
    expect(engine.store.events(first.id)).toEqual(eventsBefore);
    expect(engine.store.integrityCheck()).toBe('ok');
  });
});
