/**
 * The engine through the real sandbox and a real SQLite library: every state path a user can
 * meet, the offline queue, the concurrency limit, restarts, and the billing rules.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetExceededError, type TaskEngine } from '../../src/core/engine/index.ts';
import { InputValidationError } from '../../src/core/inputs/index.ts';
import { LibraryBusyError } from '../../src/core/library/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { MODELS, REMOTE_ACTIVE_STATES } from '../../src/shared/index.ts';
import { writePicture } from '../support/pictures.ts';
import { closeRun, freshRun, openEngine, sandbox, waitForState, waitUntil } from './engine-fixtures.ts';
import { DAY, HOUR, TestClock } from './test-clock.ts';

let dir: string;
let sb: Sandbox | null;
let engine: TaskEngine | null;

beforeEach(async () => {
  ({ dir, sb, engine } = await freshRun());
});
afterEach(() => closeRun({ engine, sb, dir }));

const song = (style = 'dream pop, warm synths', duration = 8) => ({
  model: MODELS.audio,
  taskType: 'txt2audio',
  input: { style_prompt: style, lyrics: '[verse]\nhello there\n[chorus]\nla la la', duration },
});

describe('engine lifecycle', () => {
  it('queues offline with no service, then sends, polls and saves the song when a service appears', async () => {
    const clock = new TestClock();
    engine = await openEngine(join(dir, 'lib'), null, { clock });
    const queued = await engine.queueTask(song());
    expect(queued.state).toBe('queued');
    expect(queued.estimateMicros).toBe(8 * 500);
    // an hour on the engine's clock, every timer on the way fired and its work done
    await clock.advance(HOUR, engine);
    expect(engine.store.getTask(queued.id)?.state).toBe('queued');

    clock.run();
    sb = await sandbox();
    engine.setService({ baseUrl: sb.url, apiKey: 'engine-test-key' });
    const saved = await waitForState(engine, queued.id, ['saved', 'failed', 'uncertain', 'expired']);
    expect(saved.state).toBe('saved');
    expect(saved.remoteId).toBe(sb.ledger()[0]?.taskId);
    const out = saved.outputs[0];
    expect(out?.state).toBe('saved');
    expect(out?.path).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]+\/output-1\.wav$/);
    const bytes = readFileSync(join(dir, 'lib', out?.path as string));
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(out?.sha256);
    const states = engine.store.events(queued.id).map((e) => e.to);
    expect(states[0]).toBe('queued');
    expect(states).toContain('submitting');
    expect(states.slice(-2)).toEqual(['downloading', 'saved']);
    expect(sb.ledger()).toHaveLength(1);
  });

  it('swaps a face from two local pictures, copies them into the library and makes a thumbnail', async () => {
    sb = await sandbox();
    engine = await openEngine(join(dir, 'lib'), sb);
    const target = await writePicture(join(dir, 'target.jpg'), 320, 240, 'jpeg');
    const face = await writePicture(join(dir, 'face.png'), 128, 128, 'png', { r: 200, g: 30, b: 60 });
    const task = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: target, swap_image: face },
    });
    expect(task.inputs.map((i) => [i.field, i.source, i.mime])).toEqual([
      ['target_image', 'file', 'image/jpeg'],
      ['swap_image', 'file', 'image/png'],
    ]);
    // the originals can go away: the library has its own copies
    writeFileSync(target, 'moved away');
    const saved = await waitForState(engine, task.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    const out = saved.outputs[0];
    expect(out?.thumbPath).toBeTruthy();
    expect(existsSync(join(dir, 'lib', out?.thumbPath as string))).toBe(true);
    expect(out?.width).toBe(320);
    expect(out?.height).toBe(240);
    // the service received Base64 of the library copy, not of the overwritten original
    const body = sb.ledger()[0]?.body as { input: { target_image: string } };
    expect(Buffer.from(body.input.target_image, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('edits with three images', async () => {
    sb = await sandbox();
    engine = await openEngine(join(dir, 'lib'), sb);
    const images = await Promise.all(
      [1, 2, 3].map((n) =>
        writePicture(join(dir, `img${n}.png`), 100 + n * 10, 90, 'png', { r: n * 60, g: 80, b: 90 }),
      ),
    );
    const task = await engine.queueTask({
      model: MODELS.imageEdit,
      taskType: 'image-edit',
      input: {
        image1: images[0],
        image2: images[1],
        image3: images[2],
        prompt: 'put image2 and image3 into image1',
        seed: 7,
        steps: 20,
        flow_shift: 3,
      },
    });
    const saved = await waitForState(engine, task.id, ['saved', 'failed', 'uncertain']);
    expect(saved.state).toBe('saved');
    expect(saved.outputs.every((o) => o.state === 'saved')).toBe(true);
  });

  it('refuses bad inputs before queueing, naming the field, and queues nothing', async () => {
    engine = await openEngine(join(dir, 'lib'), null);
    const big = await writePicture(join(dir, 'big.png'), 3000, 3000);
    const corrupt = join(dir, 'corrupt.png');
    writeFileSync(
      corrupt,
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(10)]),
    );
    const ok = await writePicture(join(dir, 'ok.png'), 64, 64);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ target_image: big, swap_image: ok }, /target_image.*3000 x 3000/],
      [{ target_image: 'https://example.test/face.gif', swap_image: ok }, /target_image.*\.jpg/],
      [{ target_image: ok, swap_image: corrupt }, /swap_image/],
      [{ target_image: ok }, /^swap_image: Add a face image$/],
    ];
    for (const [input, message] of cases) {
      await expect(
        engine.queueTask({ model: MODELS.imageToolkit, taskType: 'face-swap', input }),
      ).rejects.toThrow(message);
    }
    await expect(
      engine.queueTask({
        model: MODELS.imageEdit,
        taskType: 'image-edit',
        input: { image1: ok, prompt: '   ' },
      }),
    ).rejects.toBeInstanceOf(InputValidationError);
    await expect(engine.queueTask(song('', 10))).rejects.toThrow(/style_prompt/);
    await expect(engine.queueTask(song('rock', 900))).rejects.toThrow(/duration.*240/);
    expect(engine.store.countTasks({}).total).toBe(0);
  });

  it('keeps at most maxActiveRemote tasks at the service; the rest wait in order', async () => {
    sb = await sandbox({ timeScale: 0.03 });
    engine = await openEngine(join(dir, 'lib'), sb, { maxActiveRemote: 2 });
    let maxActive = 0;
    engine.onTaskChanges(() => {
      maxActive = Math.max(maxActive, engine?.store.countInStates(REMOTE_ACTIVE_STATES) ?? 0);
    });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await engine.queueTask(song(`style ${i}`, 5))).id);
    for (const id of ids) await waitForState(engine, id, ['saved'], 20_000);
    expect(maxActive).toBeGreaterThan(0);
    expect(maxActive).toBeLessThanOrEqual(2);
    // FIFO: the ledger received them in queue order
    const order = sb.ledger().map((e) => (e.body as { input: { style_prompt: string } }).input.style_prompt);
    expect(order).toEqual(ids.map((_, i) => `style ${i}`));
  });

  it('goes offline when the service is unreachable and resumes by itself when it returns', async () => {
    sb = await sandbox();
    const port = sb.port;
    const url = sb.url;
    await sb.stop();
    engine = await openEngine(join(dir, 'lib'), null);
    engine.setService({ baseUrl: url, apiKey: 'engine-test-key' });
    const task = await engine.queueTask(song());
    await waitUntil(() => engine?.status().online === false, 'offline status', 5_000);
    const waiting = engine.store.getTask(task.id);
    expect(waiting?.state).toBe('queued');
    expect(waiting?.error?.kind).toBe('offline');
    sb = await sandbox({ port });
    const saved = await waitForState(engine, task.id, ['saved', 'failed', 'uncertain'], 20_000);
    expect(saved.state).toBe('saved');
    expect(engine.status().online).toBe(true);
    expect(sb.ledger()).toHaveLength(1);
  });

  it('honours the shell offline signal: nothing is sent until it says online', async () => {
    sb = await sandbox();
    const clock = new TestClock();
    engine = await openEngine(join(dir, 'lib'), sb, { clock });
    engine.setNetworkOnline(false);
    const task = await engine.queueTask(song());
    await clock.advance(HOUR, engine);
    expect(engine.store.getTask(task.id)?.state).toBe('queued');
    expect(sb.ledger()).toHaveLength(0);
    clock.run();
    engine.setNetworkOnline(true);
    await waitForState(engine, task.id, ['saved']);
  });

  it('makes a create whose answer was lost uncertain, never re-sends it, and lets the user decide', async () => {
    // a service without task history, where the app cannot settle it (uncertain-reasons.test.ts does)
    sb = await sandbox({ faults: { resetAfterBodyRate: 1, applyTo: 'create', noTaskHistory: true } });
    // a create needs no timer: the engine's clock stands still until the task is uncertain
    const clock = new TestClock();
    engine = await openEngine(join(dir, 'lib'), sb, { clock });
    const a = await engine.queueTask(song('first'));
    const uncertain = await waitForState(engine, a.id, ['uncertain', 'saved', 'failed']);
    expect(uncertain.state).toBe('uncertain');
    expect(uncertain.error?.message).toMatch(/may or may not/);
    // the service was reached (the connection broke after the request): not offline
    expect(engine.status().online).toBe(true);
    await clock.advance(HOUR, engine);
    expect(sb.ledger()).toHaveLength(1); // billed once, not re-sent
    clock.run();
    sb.setFaults({});
    engine.resubmit(a.id);
    await waitForState(engine, a.id, ['saved']);
    expect(sb.ledger()).toHaveLength(2);

    sb.setFaults({ resetAfterBodyRate: 1, applyTo: 'create', noTaskHistory: true });
    const b = await engine.queueTask(song('second'));
    await waitForState(engine, b.id, ['uncertain']);
    expect(engine.discard(b.id).state).toBe('cancelled');
    expect(() => engine?.discard(b.id)).toThrow(/cancelled/);
  });

  it('a refused key pauses sending with a clear problem until the settings change', async () => {
    sb = await sandbox();
    engine = await openEngine(join(dir, 'lib'), null);
    engine.setService({ baseUrl: sb.url, apiKey: 'wrong-key' });
    const task = await engine.queueTask(song());
    await waitUntil(() => engine?.status().authProblem, 'auth problem', 5_000);
    expect(engine.store.getTask(task.id)?.state).toBe('queued');
    expect(JSON.stringify(engine.store.getTask(task.id))).not.toContain('wrong-key');
    engine.setService({ baseUrl: sb.url, apiKey: 'engine-test-key' });
    await waitForState(engine, task.id, ['saved']);
  });

  it('fails a task the service rejects with the service message', async () => {
    sb = await sandbox();
    engine = await openEngine(join(dir, 'lib'), sb);
    // a URL the sandbox cannot fetch: the engine does not fetch URLs, the service refuses it
    const task = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: `${sb.url}/missing/a.png`, swap_image: `${sb.url}/missing/b.png` },
    });
    const failed = await waitForState(engine, task.id, ['failed', 'saved', 'uncertain']);
    expect(failed.state).toBe('failed');
    expect(failed.error?.kind).toBe('bad-request');
    expect(failed.error?.message).toMatch(/target_image/);
  });

  it('records a failed task with the service error', async () => {
    sb = await sandbox({ faults: { taskFailureRate: 1 } });
    engine = await openEngine(join(dir, 'lib'), sb);
    const task = await engine.queueTask(song());
    const failed = await waitForState(engine, task.id, ['failed', 'saved']);
    expect(failed.state).toBe('failed');
    expect(failed.error?.kind).toBe('service-failed');
    expect(failed.remoteId).toBeTruthy();
  });

  it('keeps the record and URL when the output has expired', async () => {
    sb = await sandbox({ faults: { earlyExpiryRate: 1, earlyExpiryMs: 0 } });
    engine = await openEngine(join(dir, 'lib'), sb);
    const task = await engine.queueTask(song());
    const expired = await waitForState(engine, task.id, ['expired', 'saved', 'failed']);
    expect(expired.state).toBe('expired');
    expect(expired.error?.message).toMatch(/output expired/);
    expect(expired.outputs[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1/);
    expect(expired.outputs[0]?.state).toBe('expired');
  });

  it('resumes every state after a restart without a second create', async () => {
    sb = await sandbox({ timeScale: 0.05 });
    const lib = join(dir, 'lib');
    engine = await openEngine(lib, sb, { maxActiveRemote: 1 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await engine.queueTask(song(`restart ${i}`, 5))).id);
    await waitForState(engine, ids[0] as string, ['pending', 'processing', 'staged']);
    await engine.close();
    engine = await openEngine(lib, sb, { maxActiveRemote: 1 });
    for (const id of ids) await waitForState(engine, id, ['saved'], 20_000);
    expect(sb.ledger()).toHaveLength(3);
  });

  it('turns a task left submitting by a crash into uncertain on open', async () => {
    const lib = join(dir, 'lib');
    engine = await openEngine(lib, null);
    const task = await engine.queueTask(song());
    engine.store.transition(task.id, 'submitting', { from: ['queued'] });
    await engine.close();
    engine = await openEngine(lib, null);
    const after = engine.store.getTask(task.id);
    expect(after?.state).toBe('uncertain');
    expect(after?.error?.message).toMatch(/may or may not/);
  });

  it('refuses a second engine on the same library', async () => {
    const lib = join(dir, 'lib');
    engine = await openEngine(lib, null);
    await expect(openEngine(lib, null)).rejects.toBeInstanceOf(LibraryBusyError);
  });

  it('refuses to queue past the budget, clearly', async () => {
    engine = await openEngine(join(dir, 'lib'), null);
    engine.setBudget(10_000); // $0.01
    await engine.queueTask(song('a', 10)); // $0.005
    await expect(engine.queueTask(song('b', 20))).rejects.toBeInstanceOf(BudgetExceededError);
    await expect(engine.queueTask(song('b', 20))).rejects.toThrow(/budget of \$0\.01/);
    expect(engine.store.countTasks({}).total).toBe(1);
  });

  it('cancels a queued task, re-runs, favourites, renames, exports and deletes', async () => {
    sb = await sandbox();
    engine = await openEngine(join(dir, 'lib'), null);
    const q = await engine.queueTask(song('to cancel'));
    expect(engine.cancel(q.id).state).toBe('cancelled');
    engine.setService({ baseUrl: sb.url, apiKey: 'engine-test-key' });
    const face = await writePicture(join(dir, 'f.png'), 64, 64);
    const t = await engine.queueTask({
      model: MODELS.imageToolkit,
      taskType: 'face-swap',
      input: { target_image: face, swap_image: face },
    });
    await waitForState(engine, t.id, ['saved']);
    const again = await engine.rerun(t.id);
    expect([again.parentId, again.parentOutput]).toEqual([t.id, null]);
    await waitForState(engine, again.id, ['saved']);
    expect(sb.ledger()).toHaveLength(2);
    expect(engine.setFavorite(t.id, true).favorite).toBe(true);
    expect(engine.rename(t.id, 'Holiday swap').title).toBe('Holiday swap');
    const { exportTasks } = await import('../../src/core/library/index.ts');
    const result = await exportTasks(engine.libraryDir, [engine.store.getTask(t.id)!], join(dir, 'export'));
    const files = result.tasks[0]?.files ?? [];
    expect(files).toContain('task.json');
    expect(files.some((f) => f.startsWith('output-1.'))).toBe(true);
    const sidecar = JSON.parse(readFileSync(join(result.tasks[0]!.folder, 'task.json'), 'utf8'));
    expect(sidecar.remote_task_id).toBe(engine.store.getTask(t.id)?.remoteId);
    expect(sidecar.request.task_type).toBe('face-swap');
    const outPath = join(engine.libraryDir, engine.store.getTask(t.id)!.outputs[0]!.path!);
    await engine.deleteTask(t.id);
    expect(engine.store.getTask(t.id)).toBeNull();
    expect(existsSync(outPath)).toBe(false);
  });

  it('imports a task created elsewhere by its id, with its outputs', async () => {
    sb = await sandbox();
    const res = await fetch(`${sb.url}/api/v1/task`, {
      method: 'POST',
      headers: { 'x-api-key': 'engine-test-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODELS.imageGen, task_type: 'txt2img', input: { prompt: 'a red fox' } }),
    });
    const created = (await res.json()) as { data: { task_id: string } };
    engine = await openEngine(join(dir, 'lib'), sb);
    const imported = await engine.importRemote(created.data.task_id);
    const saved = await waitForState(engine, imported.id, ['saved', 'failed', 'expired']);
    expect(saved.state).toBe('saved');
    expect(saved.remoteId).toBe(created.data.task_id);
    expect(saved.outputs[0]?.kind).toBe('image');
    expect((await engine.importRemote(created.data.task_id)).id).toBe(imported.id);
  });

  it('coalesces task changes into deliveries at most every 50 ms', async () => {
    const clock = new TestClock();
    engine = await openEngine(join(dir, 'lib'), null, { clock });
    const deliveries: number[] = [];
    const times: number[] = [];
    engine.onTaskChanges((changes) => {
      deliveries.push(changes.length);
      times.push(clock.now());
    });
    // one task every 5 ms on the engine's clock
    for (let i = 0; i < 40; i++) {
      await engine.queueTask(song(`song ${i}`));
      await clock.advance(5);
    }
    await clock.advance(150);
    expect(deliveries.reduce((a, b) => a + b, 0)).toBe(40);
    expect(deliveries.length).toBeLessThan(40);
    for (let i = 1; i < times.length; i++)
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(45);
  });
});

describe('deleting', () => {
  it('refuses to delete a task the service is working on, and deletes a queued one', async () => {
    sb = await sandbox({ timeScale: 1 });
    engine = await openEngine(join(dir, 'lib'), sb);
    const running = await engine.queueTask(song('running'));
    await waitForState(engine, running.id, ['pending', 'processing', 'staged']);
    await expect(engine.deleteTask(running.id)).rejects.toThrow(
      /at the service; it can be deleted once its result is saved/,
    );
    expect(engine.store.getTask(running.id)).not.toBeNull();
    engine.setNetworkOnline(false);
    const queued = await engine.queueTask(song('queued'));
    await engine.deleteTask(queued.id);
    expect(engine.store.getTask(queued.id)).toBeNull();
  });

  it('moves to Recently deleted: a running task stays, a queued one is cancelled first and never sent', async () => {
    sb = await sandbox({ timeScale: 0.2 });
    engine = await openEngine(join(dir, 'lib'), sb);
    const running = await engine.queueTask(song('running'));
    await waitForState(engine, running.id, ['pending', 'processing', 'staged']);
    engine.setNetworkOnline(false);
    const queued = await engine.queueTask(song('queued'));
    const outcome = engine.trash({ ids: [running.id, queued.id, 'no-such-task'] });
    expect(outcome).toMatchObject({ moved: 1, running: 1, skipped: ['no-such-task'] });
    expect(engine.store.getTask(running.id)?.deletedAt).toBeNull();
    const gone = engine.store.getTask(queued.id);
    expect(gone).toMatchObject({ state: 'cancelled', deletedAt: outcome.deletedAt });
    expect(() => engine?.resubmit(queued.id)).toThrow(/Recently deleted: restore it first/);
    engine.setNetworkOnline(true);
    await waitForState(engine, running.id, ['saved']);
    // only the running one was ever sent
    expect(sb.ledger()).toHaveLength(1);
    expect(engine.restore({ deletedAt: outcome.deletedAt })).toEqual({ done: 1, skipped: [] });
    expect(engine.store.getTask(queued.id)).toMatchObject({ state: 'cancelled', deletedAt: null });
  });

  it('keeps the files of a deleted task until it is purged, 30 days on, after the library opens', async () => {
    sb = await sandbox();
    const clock = new TestClock();
    clock.run();
    engine = await openEngine(join(dir, 'lib'), sb, { clock });
    const kept = await waitForState(engine, (await engine.queueTask(song('kept'))).id, ['saved']);
    const old = await waitForState(engine, (await engine.queueTask(song('old'))).id, ['saved']);
    const file = (t: typeof old) => join(dir, 'lib', t.outputs[0]!.path!);
    engine.trash({ ids: [old.id] });
    const late = await waitForState(engine, (await engine.queueTask(song('late'))).id, ['saved']);
    await engine.close();
    await clock.advance(29 * DAY);
    engine = await openEngine(join(dir, 'lib'), sb, { clock });
    expect(existsSync(file(old))).toBe(true);
    engine.trash({ ids: [late.id] });
    await engine.close();
    await clock.advance(2 * DAY);
    engine = await openEngine(join(dir, 'lib'), sb, { clock });
    await engine.idle(); // the purge goes on after the opening (engine-retention tests it in batches)
    expect(engine.store.getTask(old.id)).toBeNull();
    expect(existsSync(file(old))).toBe(false);
    expect(engine.store.getTask(late.id)?.deletedAt).not.toBeNull();
    expect(existsSync(file(late))).toBe(true);
    expect(engine.store.getTask(kept.id)?.deletedAt).toBeNull();
    expect(await engine.deleteForever({ ids: [kept.id, late.id] })).toEqual({ done: 1, skipped: [kept.id] });
    expect(existsSync(file(late))).toBe(false);
    expect(existsSync(file(kept))).toBe(true);
  });
});
