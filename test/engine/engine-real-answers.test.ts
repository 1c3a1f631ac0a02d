/**
 * The engine against a server that answers the way the real hosted service's public records
 * show (capitalised or other status words, nulls in meta/logs/error, refusals inside an HTTP
 * 200, a task cancelled at the service). Real HTTP on 127.0.0.1, a real library.
 */
import { describe, expect, it } from 'vitest';
import type { EngineOptions } from '../../src/core/engine/index.ts';
import { generateGlbModel, generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { makeImage } from '../inputs/input-fixtures.ts';
import { type RawServer, sendJson, startRawServer } from '../service/raw-http-server.ts';
import {
  API_KEY,
  openEngine,
  SONG,
  sandbox,
  songRecord,
  standInClosedAfterEach,
  tempDir,
  WAV,
  waitForState,
  waitUntil,
} from './engine-fixtures.ts';
import { HOUR, TestClock } from './test-clock.ts';

const TASK_ID = '7f1f2a8e-4b7c-4a0e-9a51-3c3f0e0d2a11';

const open = standInClosedAfterEach();
/** The stand-in server of the test now running (also in `open`). */
let server: RawServer | null = null;

/** A record as the real service writes it while a task runs: nulls where nothing is known yet. */
function record(
  status: string,
  output: Record<string, unknown> | null,
  ended: { endedAt: string; consume: number } | null = null,
) {
  return songRecord(TASK_ID, status, {
    config: { service_mode: '', webhook_config: { endpoint: '', secret: '' } },
    input: { style_prompt: 'lofi', duration: 5, negative_style_prompt: '', lyrics: '[inst]' },
    output,
    meta: {
      created_at: '2025-06-11T11:43:31.673594+08:00',
      started_at: status === 'pending' ? null : '2025-06-11T11:43:32.101+08:00',
      ended_at: ended?.endedAt ?? null,
      usage: { type: 'llm', frozen: 2500, consume: ended?.consume ?? null },
      is_using_private_pool: false,
    },
  });
}

async function serve(
  fetchAnswers: ((url: string) => [number, unknown])[],
  extra: Partial<EngineOptions> = {},
  /** More files it serves, by path, as `application/octet-stream` (a CDN that names no type). */
  files: Record<string, Uint8Array> = {},
) {
  let fetches = 0;
  server = await startRawServer((req, res) => {
    if (req.method === 'POST' && req.url === '/api/v1/task')
      return sendJson(res, 200, record('pending', null));
    if (req.url === '/files/song.wav') {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      return res.end(WAV);
    }
    const file = req.url ? files[req.url] : undefined;
    if (file) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return res.end(file);
    }
    if (req.method === 'GET' && req.url === `/api/v1/task/${TASK_ID}`) {
      const answer = fetchAnswers[Math.min(fetches++, fetchAnswers.length - 1)] as (
        u: string,
      ) => [number, unknown];
      const [status, body] = answer(server?.url ?? '');
      return sendJson(res, status, body);
    }
    sendJson(res, 404, { code: 404, message: 'not found' });
  });
  open.server = server;
  open.dir = await tempDir();
  open.engine = await openEngine(open.dir, null, {
    service: { baseUrl: server.url, apiKey: API_KEY },
    ...extra,
  });
  return open.engine;
}

describe('the engine with the real service answer shapes', () => {
  it('saves a song whose record says Processing with null times, then success', async () => {
    const e = await serve([
      () => [200, record('Processing', null)],
      (url) => [
        200,
        record(
          'success',
          { audio_url: `${url}/files/song.wav` },
          { endedAt: '2025-06-11T11:44:01Z', consume: 2500 },
        ),
      ],
    ]);
    const queued = await e.queueTask(SONG);
    const saved = await waitForState(e, queued.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    expect(saved.remoteStatus).toBe('success');
    expect(saved.model).toBe('Qubico/ace-step');
    expect(saved.usage?.consume).toBe(2500);
    expect(saved.outputs[0]?.state).toBe('saved');
    // the song's length, read from the downloaded file (8,000 samples at 8 kHz)
    expect(saved.outputs[0]?.durationSeconds).toBe(1);
    // what the task cost, as the service reported it, is what the budget counts
    expect(e.store.costSummary().spentMicros).toBe(2500);
  });

  it('ends a task the service reports as Canceled as cancelled, says so, and stops asking', async () => {
    const clock = new TestClock();
    clock.run();
    const e = await serve([() => [200, record('Canceled', null)]], { clock });
    const queued = await e.queueTask(SONG);
    const done = await waitForState(e, queued.id, ['cancelled', 'failed', 'saved']);
    expect(done.state).toBe('cancelled');
    expect(done.error?.kind).toBe('cancelled-at-service');
    clock.stop();
    const asked = server?.requests.filter((r) => r.method === 'GET').length ?? 0;
    // an hour on the engine's clock, every timer on the way fired and its work done
    await clock.advance(HOUR, e);
    expect(server?.requests.filter((r) => r.method === 'GET').length).toBe(asked);
  });

  it('fails the task when a fetch says, inside an HTTP 200, that the task is unknown', async () => {
    const e = await serve([() => [200, { code: 404, data: null, message: 'task not found' }]]);
    const queued = await e.queueTask(SONG);
    const done = await waitForState(e, queued.id, ['failed', 'saved', 'cancelled']);
    expect(done.state).toBe('failed');
    expect(done.error?.message).toContain('task not found');
  });
});

describe('results only the last pass finds', () => {
  it('are recorded as the kind their saved bytes are when neither field nor address names one', async () => {
    const files = {
      '/cdn/a1': WAV,
      '/cdn/b2': await makeImage('png', 64, 48),
      '/cdn/c3': generateVideoMp4({ prompt: 'last pass', seconds: 0.5 }),
      '/cdn/d4': generateGlbModel({ seedText: 'last pass' }),
      '/cdn/e5': Buffer.from('just some text'),
    };
    const e = await serve(
      [
        (url) => [
          200,
          record(
            'success',
            { works: Object.keys(files).map((path) => ({ resource: { address: `${url}${path}` } })) },
            { endedAt: '2025-06-11T11:44:01Z', consume: 2500 },
          ),
        ],
      ],
      {},
      files,
    );
    const queued = await e.queueTask(SONG);
    const saved = await waitForState(e, queued.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    const outputs = saved.outputs;
    expect(outputs.map((o) => [o.field, o.state, o.kind, o.mime])).toEqual([
      ['output.works[0].resource.address', 'saved', 'audio', 'audio/wav'],
      ['output.works[1].resource.address', 'saved', 'image', 'image/png'],
      ['output.works[2].resource.address', 'saved', 'video', 'video/mp4'],
      ['output.works[3].resource.address', 'saved', '3d', 'model/gltf-binary'],
      ['output.works[4].resource.address', 'saved', 'file', 'application/octet-stream'],
    ]);
    // each kind's own work on saving was done too: a song's length, a picture's thumbnail, a video's facts
    expect(outputs[0]?.durationSeconds).toBe(1);
    expect(outputs[1]).toMatchObject({
      width: 64,
      height: 48,
      thumbPath: expect.stringMatching(/\.webp$|\.png$|\.jpg$/),
    });
    expect(outputs[2]).toMatchObject({ width: 160, height: 96, durationSeconds: 0.5 });
    // the store's own copy, read back from the SQLite file by a fresh engine, says the same
    await e.close();
    open.engine = await openEngine(open.dir, null, {
      service: { baseUrl: server?.url ?? '', apiKey: API_KEY },
    });
    expect(open.engine.store.getTask(queued.id)?.outputs.map((o) => o.kind)).toEqual([
      'audio',
      'image',
      'video',
      '3d',
      'file',
    ]);
  });
});

describe('the plan’s concurrency limit', () => {
  it.each(['stage', 'refuse'] as const)(
    'lowers its own limit when the service %ss a task over its limit, says why, and still saves every task',
    async (overLimit) => {
      const sb = await sandbox({ timeScale: 0.02, concurrencyLimit: 1, overLimit });
      open.dir = await tempDir();
      // the client retries a 429 by itself: with one attempt, the engine sees the refusal
      const engine = await openEngine(open.dir, sb, {
        maxActiveRemote: 5,
        ...(overLimit === 'refuse' ? { clientRetry: { maxAttempts: 1 } } : {}),
      });
      open.engine = engine;
      try {
        const ids = [];
        for (let i = 0; i < 3; i++)
          ids.push(
            (await engine.queueTask({ ...SONG, input: { ...SONG.input, style_prompt: `song ${i}` } })).id,
          );
        let mostAtService = 0;
        const watch = setInterval(() => {
          const active = engine?.store.countInStates(['pending', 'staged', 'processing']) ?? 0;
          mostAtService = Math.max(mostAtService, active);
        }, 5);
        try {
          for (const id of ids)
            expect((await waitForState(engine, id, ['saved', 'failed', 'uncertain'])).state).toBe('saved');
        } finally {
          clearInterval(watch);
        }
        const status = engine.status();
        expect(status.serviceLimit).toBe(1);
        expect(status.serviceLimitReason).toMatch(/plan seems to allow 1 at once/);
        // one running and, at most, the one the service held or refused when the limit was learned
        expect(mostAtService).toBeLessThanOrEqual(2);
        expect(sb.ledger()).toHaveLength(3);
      } finally {
        await engine.close();
        open.engine = null;
        await sb.stop();
      }
    },
  );
});

describe('an answer the engine cannot read', () => {
  it('shows why, asks again only slowly, and asks at once when the user says Check now', async () => {
    const clock = new TestClock();
    clock.run();
    const e = await serve(
      [() => [200, { code: 200, data: { task_id: TASK_ID, status: 7 }, message: 'success' }]],
      { clock },
    );
    const queued = await e.queueTask(SONG);
    const fetches = () => server?.requests.filter((r) => r.method === 'GET').length ?? 0;
    const troubled = await waitUntil(
      () => {
        const t = e.store.getTask(queued.id);
        return t?.error?.message.includes('could not be read') ? t : null;
      },
      'the unreadable answer to be shown',
      5_000,
    );
    clock.stop();
    expect(troubled.state).toBe('pending');
    // the next try waits (seconds at first, backing off to a minute), it is not a fast loop
    const waitMs = (e.store.pollSchedule(queued.id)?.nextPollAt ?? 0) - clock.now();
    expect(waitMs).toBeGreaterThan(1_000);
    const before = fetches();
    // up to a millisecond before the next try is due, nothing is asked
    await clock.advance(waitMs - 1, e);
    expect(fetches()).toBe(before);
    e.checkNow(queued.id);
    await waitUntil(() => fetches() > before, 'the fetch Check now asks for', 3_000);
    expect(() => e.checkNow('no-such-task')).toThrow(/no task no-such-task/);
  });
});

describe('answers that stay unreadable', () => {
  const UNREADABLE = { code: 200, data: { task_id: TASK_ID, status: 7 }, message: 'success' };
  const gaveUp =
    /^the service's answers about this task could not be read for over 6 hours \((\d+) answers in a row; the last: task record rejected: data\.status[^)]*\), so the app stopped asking\. The task may still have run \(and been billed\) at the service\.$/;

  it('end the task as failed, with the last reason, once 30 in a row span 6 hours; asked about once a minute meanwhile', async () => {
    const clock = new TestClock();
    const e = await serve([() => [200, UNREADABLE]], { clock });
    const queued = await e.queueTask(SONG);
    await clock.advance(6 * HOUR - 60_000, e);
    const fetches = () => server?.requests.filter((r) => r.method === 'GET').length ?? 0;
    expect(e.store.getTask(queued.id)?.state).toBe('pending');
    // backing off to once a minute: not a fast loop for hours
    expect(fetches()).toBeGreaterThan(30);
    expect(fetches()).toBeLessThan(6 * 60 + 10);
    await clock.advance(2 * 60_000, e);
    const failed = e.store.getTask(queued.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.kind).toBe('protocol');
    expect(failed?.error?.message).toMatch(gaveUp);
    expect(e.store.events(queued.id).at(-1)).toMatchObject({
      to: 'failed',
      detail: 'the answers about the task could not be read for 6 hours',
    });
    // ended: never asked again
    const after = fetches();
    await clock.advance(HOUR, e);
    expect(fetches()).toBe(after);
  });

  it('start counting again after a readable answer, and keep counting across a restart', async () => {
    let readable = false;
    const clock = new TestClock();
    const e = await serve([() => (readable ? [200, record('Processing', null)] : [200, UNREADABLE])], {
      clock,
    });
    const queued = await e.queueTask(SONG);
    await clock.advance(HOUR, e);
    readable = true;
    await clock.advance(2 * 60_000, e);
    expect(e.store.getTask(queued.id)).toMatchObject({ state: 'processing', error: null });
    readable = false;
    await clock.advance(3 * HOUR, e);
    // 4 hours of unreadable answers but one: the run since that one is 3 hours old
    expect(e.store.getTask(queued.id)?.state).toBe('processing');
    await e.close();
    const later = new TestClock(clock.now());
    const reopened = await openEngine(open.dir, null, {
      clock: later,
      service: { baseUrl: server?.url ?? '', apiKey: API_KEY },
    });
    open.engine = reopened;
    // 6 hours since the first unreadable answer, 5 since the readable one: still asking
    await later.advance(2 * HOUR, reopened);
    expect(reopened.store.getTask(queued.id)?.state).toBe('processing');
    await later.advance(HOUR + 5 * 60_000, reopened);
    const failed = reopened.store.getTask(queued.id);
    expect(failed?.state).toBe('failed');
    expect(failed?.error?.message).toMatch(gaveUp);
  });
});
