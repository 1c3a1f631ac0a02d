/**
 * "Tasks at once" changed while the engine is open (setMaxActiveRemote), through the real
 * sandbox: the new number holds from the next send, raised or lowered, without reopening the
 * library. Tasks from elsewhere under the same key (the service's running-task counts) take
 * slots too. The engine's clock stands still except where the test moves it, so what the engine
 * knows of each task (it learns only by fetching) changes only when the test says.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS, REMOTE_ACTIVE_STATES, type TaskState } from '../../src/shared/index.ts';
import { API_KEY, closeRun, freshRun, openEngine, sandbox } from './engine-fixtures.ts';
import { TestClock } from './test-clock.ts';

let dir: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, sb, engine } = await freshRun());
});
afterEach(() => closeRun({ engine, sb, dir }));

const song = (style: string, duration: number) => ({
  model: MODELS.audio,
  taskType: 'txt2audio',
  input: { style_prompt: style, lyrics: '[verse]\nhello', duration },
});

/** The service's own word on a task, asked over HTTP. */
async function statusAtService(remoteId: string): Promise<string> {
  const res = await fetch(`${(sb as Sandbox).url}/api/v1/task/${remoteId}`, {
    headers: { 'x-api-key': API_KEY },
  });
  const body = (await res.json()) as { data: { status: string } };
  return body.data.status.toLowerCase();
}

/** Creates a long song straight at the sandbox, as another app with the same key would. */
async function createElsewhere(at: Sandbox): Promise<void> {
  const res = await fetch(`${at.url}/api/v1/task`, {
    method: 'POST',
    headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: MODELS.audio,
      task_type: 'txt2audio',
      input: { style_prompt: 'elsewhere', lyrics: '[verse]\nhello', duration: 240 },
    }),
  });
  expect(res.status).toBe(200);
}

describe('tasks from elsewhere at the service', () => {
  it('count as taking slots, and the status says what runs at the service', async () => {
    sb = await sandbox({ timeScale: 1 });
    await createElsewhere(sb);
    await createElsewhere(sb);
    const clock = new TestClock();
    const e = await openEngine(join(dir, 'lib'), sb, { clock, maxActiveRemote: 3 });
    engine = e;
    for (const style of ['a', 'b', 'c']) await e.queueTask(song(style, 240));
    await e.idle();
    // 3 at once, 2 of them taken by tasks from elsewhere: one is sent
    expect(e.store.countInStates(REMOTE_ACTIVE_STATES)).toBe(1);
    expect(sb.ledger()).toHaveLength(3);
    const status = e.status();
    expect(status.atService).toEqual({
      running: expect.any(Number),
      waiting: expect.any(Number),
      fromElsewhere: 2,
    });
    // read before the engine sent its own task, which it counts at once: Activity never says
    // "1 at the service" over "At the service: 0 running, 2 waiting (2 from elsewhere)"
    expect((status.atService?.running ?? 0) + (status.atService?.waiting ?? 0)).toBe(3);
    expect(status.serviceLimit).toBe(1);
    expect(status.serviceLimitReason).toMatch(/2 tasks from elsewhere .* at most 1 at a time/);

    // the next reading, at the first turn of the work loop 30 s on (a fetch of the engine's own
    // task), counts that task as this library's
    await clock.advance(31_000, e);
    expect(e.status().atService?.fromElsewhere).toBe(2);
    const at = e.status().atService;
    expect((at?.running ?? 0) + (at?.waiting ?? 0)).toBe(3);
    expect(sb.ledger()).toHaveLength(3);
  });

  it('says nothing, and sends up to the setting, when the service does not tell', async () => {
    sb = await sandbox({ timeScale: 1, faults: { noTaskHistory: true } });
    await createElsewhere(sb);
    await createElsewhere(sb);
    const clock = new TestClock();
    const e = await openEngine(join(dir, 'lib'), sb, { clock, maxActiveRemote: 3 });
    engine = e;
    for (const style of ['a', 'b', 'c']) await e.queueTask(song(style, 240));
    await e.idle();
    expect(e.store.countInStates(REMOTE_ACTIVE_STATES)).toBe(3);
    expect(e.status()).toMatchObject({ atService: null, serviceLimit: null, serviceLimitReason: null });
  });
});

describe('tasks at once, changed while open', () => {
  it('raises and lowers how many tasks the service holds from the next send', async () => {
    // at this scale a 5 s song takes the sandbox about 1.1 s, a 240 s song about 5.8 s
    sb = await sandbox({ timeScale: 0.2 });
    const clock = new TestClock();
    const e = await openEngine(join(dir, 'lib'), sb, { clock, maxActiveRemote: 1 });
    engine = e;
    const short = await e.queueTask(song('short', 5));
    const long1 = await e.queueTask(song('long one', 240));
    const long2 = await e.queueTask(song('long two', 240));
    const last = await e.queueTask(song('last', 5));
    const states = () => [short, long1, long2, last].map((t) => e.store.getTask(t.id)?.state as TaskState);
    const atService = () => e.store.countInStates(REMOTE_ACTIVE_STATES);

    await e.idle();
    expect(states()).toEqual(['pending', 'queued', 'queued', 'queued']);

    e.setMaxActiveRemote(3);
    await e.idle();
    expect(atService()).toBe(3);
    expect(states()[3]).toBe('queued');
    expect(sb.ledger()).toHaveLength(3);

    // lowered below what the service holds: none is stopped, nothing more is sent
    e.setMaxActiveRemote(2);
    await e.idle();
    expect(atService()).toBe(3);
    expect(sb.ledger()).toHaveLength(3);

    // once the short song is done at the service, the engine fetches all three: two stay, at the limit
    const shortId = e.store.getTask(short.id)?.remoteId as string;
    for (let i = 0; (await statusAtService(shortId)) !== 'completed'; i++) {
      if (i > 200) throw new Error('the short song did not complete at the sandbox');
      await new Promise((r) => setTimeout(r, 25));
    }
    await clock.advance(100, e);
    expect(states()[0]).toBe('saved');
    expect(atService()).toBe(2);
    expect(states()[3]).toBe('queued');
    expect(sb.ledger()).toHaveLength(3);

    expect(() => e.setMaxActiveRemote(0)).toThrow(/at least 1/);
    expect(() => e.setMaxActiveRemote(1.5)).toThrow(/whole number/);
  });
});
