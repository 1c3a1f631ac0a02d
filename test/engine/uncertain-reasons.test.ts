/**
 * Why a create is in doubt, in the words the task keeps: the sandbox answering the create with
 * HTTP 500 (the service answered, with an error) and the sandbox taking the create and then
 * dropping the connection (no answer came back) both leave the task uncertain, each said as
 * what happened.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/core/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import {
  API_KEY,
  closeRun,
  freshRun,
  openEngine,
  sandbox,
  waitForState,
  waitUntil,
} from './engine-fixtures.ts';
import { HOUR, TestClock } from './test-clock.ts';

let dir: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, sb, engine } = await freshRun());
});
afterEach(() => closeRun({ engine, sb, dir }));

const song = {
  model: MODELS.audio,
  taskType: 'txt2audio',
  input: { style_prompt: 'uncertain reasons, kalimba', lyrics: '[verse]\nhello', duration: 4 },
};

describe('the reason an uncertain create gives', () => {
  it('a 500 answer to the create: the service answered with an error and may or may not have created it', async () => {
    sb = await sandbox({ faults: { serverErrorRate: 1, applyTo: 'create' } });
    engine = await openEngine(join(dir, 'lib'), sb);
    const queued = await engine.queueTask(song);
    const task = await waitForState(engine, queued.id, ['uncertain', 'failed', 'saved']);
    expect(task.state).toBe('uncertain');
    expect(task.error).toMatchObject({ kind: 'uncertain', code: 500 });
    expect(task.error?.message).toMatch(
      /^the service answered with an error \(HTTP 500\b.*\) and may or may not have created \(and billed\) the task\. Submit it again, or discard it\.$/,
    );
    expect(task.error?.message).not.toMatch(/no answer|never got an answer|answer was lost/);
    expect(engine.store.events(queued.id).at(-1)?.detail).toBe(
      'the service answered the create request with an error (HTTP 500)',
    );
  });

  it('a connection reset after the create was sent: no answer came back (a service without task history)', async () => {
    sb = await sandbox({ faults: { resetAfterBodyRate: 1, applyTo: 'create', noTaskHistory: true } });
    engine = await openEngine(join(dir, 'lib'), sb);
    const queued = await engine.queueTask(song);
    const task = await waitForState(engine, queued.id, ['uncertain', 'failed', 'saved']);
    expect(task.state).toBe('uncertain');
    expect(task.error).toMatchObject({ kind: 'uncertain', code: null });
    expect(task.error?.message).toMatch(
      /^no answer came back: the connection broke after the create request was sent, so we can't tell whether the service received it; it may or may not have been created and billed\. Submit it again, or discard it\.$/,
    );
    expect(task.error?.message).not.toContain('answered with an error');
    expect(sb.ledger()).toHaveLength(1);
    // the history answered 404: left uncertain as it was, with the reason
    const looked = await waitUntil(
      () => engine?.store.getTask(queued.id)?.settlement,
      'a look at the history',
    );
    expect(looked).toMatchObject({ outcome: 'unreachable', candidates: [] });
    expect(looked.note).toMatch(/^this service has no task history \(HTTP 404\)/);
    expect(engine.store.getTask(queued.id)).toMatchObject({ state: 'uncertain', error: task.error });
  });
});

/** Settlement tuned to the sandbox on this computer: one clock, so a window of a second is safe. */
const QUICK_SETTLEMENT = { settlement: { windowMs: 400, marginMs: 200, recheckMs: 100 } };

describe("a create in doubt settled from the service's task history", () => {
  it('made and then cut before its answer: adopted from the history, polled, downloaded and saved, created once', async () => {
    sb = await sandbox({ faults: { resetAfterBodyRate: 1, applyTo: 'create' } });
    engine = await openEngine(join(dir, 'lib'), sb);
    const queued = await engine.queueTask(song);
    const task = await waitForState(engine, queued.id, ['saved', 'failed', 'cancelled']);
    expect(task.state).toBe('saved');
    expect(sb.ledger()).toHaveLength(1);
    expect(task.remoteId).toBe(sb.ledger()[0]?.taskId);
    expect(task.outputs[0]).toMatchObject({ state: 'saved' });
    expect(task.settlement ?? null).toBeNull();
    const moves = engine.store.events(queued.id).map((e) => e.to);
    expect(moves.slice(0, 3)).toEqual(['queued', 'submitting', 'uncertain']);
    expect(engine.store.events(queued.id)[3]?.detail).toMatch(
      /^found in the service’s task history: task [0-9a-f-]{36}, not sent again$/,
    );
  });

  it('never created (a 500 before anything was made): said so once the window is past, then sent again without a second bill', async () => {
    sb = await sandbox({ faults: { serverErrorRate: 1, applyTo: 'create' } });
    engine = await openEngine(join(dir, 'lib'), sb, QUICK_SETTLEMENT);
    const queued = await engine.queueTask(song);
    const task = await waitUntil(() => {
      const t = engine?.store.getTask(queued.id);
      return t?.settlement?.outcome === 'not-created' ? t : null;
    }, 'the never-created verdict');
    expect(task.state).toBe('uncertain');
    expect(task.error?.message).toMatch(
      /^the service never created it; nothing was billed \(its task history from .+ UTC has no such task\)\. Submit it again \(it is sent once\), or discard it\.$/,
    );
    expect(sb.ledger()).toHaveLength(0);
    sb.setFaults({});
    engine.resubmit(queued.id);
    const saved = await waitForState(engine, queued.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    expect(saved.settlement ?? null).toBeNull();
    expect(sb.ledger()).toHaveLength(1);
  });

  it('two tasks of the service could be it: the user is asked, shown both, and the one chosen is adopted', async () => {
    sb = await sandbox({ faults: {} });
    // the same song made elsewhere (the web workspace) just before
    const elsewhere = await fetch(`${sb.url}/api/v1/task`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ model: song.model, task_type: song.taskType, input: song.input }),
    });
    expect(elsewhere.status).toBe(200);
    sb.setFaults({ resetAfterBodyRate: 1, applyTo: 'create' });
    engine = await openEngine(join(dir, 'lib'), sb, QUICK_SETTLEMENT);
    const queued = await engine.queueTask(song);
    const asked = await waitUntil(() => {
      const t = engine?.store.getTask(queued.id);
      return t?.settlement?.outcome === 'choose' ? t : null;
    }, 'the question');
    sb.setFaults({});
    const made = sb.ledger().map((e) => e.taskId);
    expect(made).toHaveLength(2);
    expect(asked.settlement?.candidates.map((c) => c.remoteId).sort()).toEqual([...made].sort());
    for (const c of asked.settlement?.candidates ?? [])
      expect(Date.parse(c.createdAt ?? '')).toBeGreaterThan(0);
    expect(asked.error?.message).toMatch(
      /^the service has 2 tasks that could be this one \(created from .+ UTC\): choose the one that is this task, or submit it again, or discard it\.$/,
    );
    await expect(engine.settle(queued.id, 'not-a-task')).rejects.toThrow();
    const chosen = made[1] as string;
    await engine.settle(queued.id, chosen);
    const saved = await waitForState(engine, queued.id, ['saved', 'failed']);
    expect(saved).toMatchObject({ state: 'saved', remoteId: chosen, settlement: null });
    await expect(engine.settle(queued.id, made[0] as string)).rejects.toThrow(/only uncertain tasks/);
    expect(sb.ledger()).toHaveLength(2);
  });

  it('sent over a day before the history is first read: its silence proves nothing, and the task says so', async () => {
    sb = await sandbox({ faults: { serverErrorRate: 1, applyTo: 'create', noTaskHistory: true } });
    const lib = join(dir, 'lib');
    engine = await openEngine(lib, sb);
    const queued = await engine.queueTask(song);
    await waitUntil(
      () => engine?.store.getTask(queued.id)?.settlement?.outcome === 'unreachable',
      'a first look',
    );
    await engine.close();
    sb.setFaults({});
    // the library opened again a day and more later (the clock standing still there)
    engine = await openEngine(lib, sb, { clock: new TestClock(Date.now() + 25 * HOUR) });
    const task = await waitUntil(() => {
      const t = engine?.store.getTask(queued.id);
      return t?.settlement?.note.startsWith('it was sent over a day ago') ? t : null;
    }, 'the look of a day later');
    expect(task).toMatchObject({
      state: 'uncertain',
      settlement: { outcome: 'unreachable', candidates: [] },
    });
    expect(task.error?.message).toMatch(/^the service answered with an error \(HTTP 500/);
    expect(sb.ledger()).toHaveLength(0);
  });
});
