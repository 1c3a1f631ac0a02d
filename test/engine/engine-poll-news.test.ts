/**
 * What a running task tells the window: a fetch that brings nothing new (the same status, times
 * and usage, however the service writes its times) records only when to fetch next, and emits
 * no change; the next change is the next thing the task shows. And an output the service sends
 * inline (a `data:` URL) does not stay in the library's row once it is saved.
 * Real HTTP on 127.0.0.1, a real library, the engine's clock moved by the test.
 */

import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskChange, TaskEngine } from '../../src/core/engine/index.ts';
import { SAVED_INLINE_OUTPUT_URL } from '../../src/shared/index.ts';
import { type RawServer, startRawServer } from '../service/raw-http-server.ts';
import { API_KEY, openEngine, removeDir, SONG, songRecord, tempDir, WAV } from './engine-fixtures.ts';
import { HOUR, TestClock } from './test-clock.ts';

const TASK_ID = '5b0c7a3e-2f1d-4c8e-9a7b-6d5e4f3a2b10';
/** Fetches answered "still running" before the answer "done". */
const RUNNING_FETCHES = 20;

let server: RawServer | null = null;
let engine: TaskEngine | null = null;
let dir = '';

afterEach(async () => {
  await engine?.close();
  await server?.close();
  if (dir) await removeDir(dir);
  engine = null;
  server = null;
});

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** The record as the hosted service writes it: times with microseconds and +08:00. */
function record(status: string, output: Record<string, unknown> | null) {
  const done = status === 'success';
  return songRecord(TASK_ID, status, {
    input: { style_prompt: 'lofi', duration: 5 },
    output,
    meta: {
      created_at: '2025-06-11T11:43:31.673594+08:00',
      started_at: status === 'pending' ? null : '2025-06-11T11:43:32.101482+08:00',
      ended_at: done ? '2025-06-11T11:44:01.5+08:00' : null,
      usage: { type: 'llm', frozen: 2500, consume: done ? 2500 : null },
    },
  });
}

describe('news from the service', () => {
  it('a task fetched many times while it runs emits no change between its state changes', async () => {
    const inline = `data:audio/wav;base64,${Buffer.from(WAV).toString('base64')}`;
    let fetches = 0;
    server = await startRawServer((req, res) => {
      if (req.method === 'POST') return json(res, record('pending', null));
      fetches += 1;
      if (fetches <= RUNNING_FETCHES) return json(res, record('Processing', null));
      json(res, record('success', { audio_url: inline }));
    });
    dir = await tempDir();
    const clock = new TestClock();
    engine = await openEngine(dir, null, {
      clock,
      service: { baseUrl: server.url, apiKey: API_KEY },
      // the stand-in answers every GET as the task: no reading of what runs at the service
      serviceLoadIntervalMs: 0,
      // a fetch at least a second after the one before: each change has a delivery of its own
      polling: {
        minIntervalMs: 1_000,
        maxIntervalMs: 5_000,
        elapsedFraction: 0.05,
        firstFetchNoHistoryMs: 1_000,
        jitter: 0,
      },
    });
    const deliveries: TaskChange[][] = [];
    engine.onTaskChanges((changes) => deliveries.push(changes));
    const queued = await engine.queueTask(SONG);
    // every timer of an hour on the engine's clock fired, and its work done
    await clock.advance(HOUR, engine);

    const saved = engine.store.getTask(queued.id);
    expect(saved?.state).toBe('saved');
    expect(fetches).toBe(RUNNING_FETCHES + 1);
    // A delivery holds the latest state of each task that changed within its interval: the clock
    // stands still while the create is sent (queued, submitting, pending go out as one) and while
    // the result is saved. In between, one delivery per change the task shows: the first
    // "Processing"; the 19 fetches after it changed nothing shown.
    expect(deliveries.map((changes) => changes.map((c) => c.task?.state))).toEqual([
      ['pending'],
      ['processing'],
      ['saved'],
    ]);
    expect(engine.store.pollSchedule(queued.id)).toEqual({
      nextPollAt: null,
      pollCount: RUNNING_FETCHES + 1,
    });
    for (const changes of deliveries)
      for (const change of changes) expect(change.task).not.toHaveProperty('pollCount');

    // the inline output is in its file; the row keeps a marker, not the data
    const output = saved?.outputs[0];
    expect(output?.url).toBe(SAVED_INLINE_OUTPUT_URL);
    expect(readFileSync(join(dir, output?.path ?? 'missing'))).toEqual(Buffer.from(WAV));
    const db = new DatabaseSync(join(dir, 'library.sqlite'), { readOnly: true });
    try {
      const rows = db.prepare('SELECT url FROM task_outputs WHERE task_id = ?').all(queued.id);
      expect(rows.map((r) => r.url)).toEqual([SAVED_INLINE_OUTPUT_URL]);
    } finally {
      db.close();
    }
  });
});
