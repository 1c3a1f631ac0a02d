/**
 * Why a create is in doubt, in the words the task keeps: the sandbox answering the create with
 * HTTP 500 (the service answered, with an error) and the sandbox taking the create and then
 * dropping the connection (no answer came back) both leave the task uncertain, each said as
 * what happened.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskEngine } from '../../src/main/engine/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS } from '../../src/shared/index.ts';
import { closeRun, freshRun, openEngine, sandbox, waitForState } from './engine-fixtures.ts';

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

  it('a connection reset after the create was sent: no answer came back', async () => {
    sb = await sandbox({ faults: { resetAfterBodyRate: 1, applyTo: 'create' } });
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
  });
});
