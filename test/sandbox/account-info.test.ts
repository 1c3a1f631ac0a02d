/** GET /account/info: the balance before, during and after a billed task, a failed task's refund, and the key check. */
import { describe, expect, it } from 'vitest';
import { HOSTED_POINTS_PER_MICRO, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.ts';
import {
  getJson,
  KEY,
  pngDataUri,
  postTask,
  selfFaceSwap,
  startTestSandbox,
  waitForEnd,
} from './sandbox-http.ts';

const ACCOUNT = '/account/info';
/** The published face-swap price: 0.01 USD = 10,000 points. */
const FACE_SWAP_POINTS = 10_000;
/** A 2 s song at $0.0005 a second, in micro-dollars. */
const SONG_MICROS = 1_000;

async function withSandbox(options: SandboxOptions, run: (sb: Sandbox) => Promise<void>) {
  const sb = await startTestSandbox(options);
  try {
    await run(sb);
  } finally {
    await sb.stop();
  }
}

async function faceSwap(sb: Sandbox) {
  const created = await postTask(sb, selfFaceSwap(await pngDataUri(24, 24)));
  expect(created.status, created.text).toBe(200);
  return created.json.data.task_id as string;
}

describe('account info', () => {
  it('answers {code: 200, data: {account_name, account_id, credits, equivalent_in_usd, ...}, message} from the ledger', async () => {
    await withSandbox({ timeScale: 0.05 }, async (sb) => {
      const before = await getJson(sb, ACCOUNT);
      expect(before.status).toBe(200);
      expect(before.json).toMatchObject({ code: 200, message: 'success' });
      expect(before.json.data).toMatchObject({
        account_name: 'sandbox',
        credits: 10_000_000,
        equivalent_in_usd: 10,
        max_concurrent_task_count: 10,
        wallet: { point_remain: 10_000_000, point_frozen: 0, point_used: 0 },
      });
      expect(typeof before.json.data.account_id).toBe('number');

      const id = await faceSwap(sb);
      const running = await getJson(sb, ACCOUNT);
      expect(running.json.data).toMatchObject({
        credits: 10_000_000 - FACE_SWAP_POINTS,
        wallet: { point_frozen: FACE_SWAP_POINTS, point_used: 0 },
      });

      const done = await waitForEnd(sb, id);
      expect(done.json.data.meta.usage.consume).toBe(FACE_SWAP_POINTS);
      const after = await getJson(sb, ACCOUNT);
      expect(after.json.data).toMatchObject({
        credits: 9_990_000,
        equivalent_in_usd: 9.99,
        wallet: { point_remain: 9_990_000, point_frozen: 0, point_used: FACE_SWAP_POINTS },
      });
    });
  });

  it('gives a failed task its frozen points back', async () => {
    await withSandbox({ faults: { taskFailureRate: 1 }, balanceMicros: 50_000 }, async (sb) => {
      const id = await faceSwap(sb);
      expect((await getJson(sb, ACCOUNT)).json.data.credits).toBe(40_000);
      const done = await waitForEnd(sb, id);
      expect(done.json.data.status).toBe('failed');
      expect((await getJson(sb, ACCOUNT)).json.data).toMatchObject({
        credits: 50_000,
        equivalent_in_usd: 0.05,
        wallet: { point_frozen: 0, point_used: 0 },
      });
    });
  });

  it('answers 401 without a valid key (in the profile error body) and 405 for another method', async () => {
    await withSandbox({}, async (sb) => {
      const missing = await getJson(sb, ACCOUNT, null);
      expect(missing.status).toBe(401);
      expect(missing.json).toMatchObject({ code: 401, data: null, error: { code: 401 } });
      expect((await getJson(sb, ACCOUNT, 'wrong')).status).toBe(401);
      const post = await fetch(`${sb.url}${ACCOUNT}`, { method: 'POST', headers: { 'x-api-key': KEY } });
      expect(post.status).toBe(405);
      await post.arrayBuffer();
    });
    await withSandbox({ profile: 'hosted' }, async (sb) => {
      const wrong = await getJson(sb, ACCOUNT, 'wrong');
      expect(wrong.status).toBe(401);
      expect(wrong.json).toEqual({ code: 401, message: 'Invalid API key' });
    });
  });
});

const HISTORY = '/api/open/tasks/histories';
const ACTIVE = '/account/active_tasks';
const song = (marker: string) => ({
  model: 'Qubico/ace-step',
  task_type: 'txt2audio',
  input: { style_prompt: marker, duration: 2 },
});

describe('user task history and running-task counts (as the real service documents them)', () => {
  it('lists every task it created, a create cut before its answer included, newest first, by family, time and page', async () => {
    await withSandbox({ profile: 'hosted', timeScale: 0.05 }, async (sb) => {
      const start = Math.floor(Date.now() / 1000) - 1;
      const faceId = await faceSwap(sb);
      const songId = taskIdOfCreate(await postTask(sb, song('history one')));
      // made and billed, then the connection is cut before any answer
      sb.setFaults({ resetAfterBodyRate: 1, applyTo: 'create' });
      await expect(postTask(sb, song('history cut'))).rejects.toThrow();
      sb.setFaults({});
      const cutId = sb.ledger().at(-1)?.taskId as string;
      const end = Math.floor(Date.now() / 1000) + 1;

      const all = await getJson(sb, `${HISTORY}?page=1&page_size=20&start_time=${start}&end_time=${end}`);
      expect(all.status, all.text).toBe(200);
      expect(all.json).toMatchObject({
        code: 200,
        message: 'success',
        data: { page: 1, size: 20, total: 3 },
      });
      expect(all.json.data.data.map((r: { taskId: string }) => r.taskId)).toEqual([cutId, songId, faceId]);
      expect(all.json.data.data[0]).toMatchObject({
        taskId: cutId,
        taskModel: 'Qubico/ace-step',
        action: 'txt2audio',
        usageType: 'llm',
      });
      expect(typeof all.json.data.data[0].createdAt).toBe('string');

      const songs = await getJson(
        sb,
        `${HISTORY}?page=1&page_size=1&model=llm&start_time=${start}&end_time=${end}`,
      );
      expect(songs.json.data).toMatchObject({ page: 1, size: 1, total: 2 });
      expect(songs.json.data.data.map((r: { taskId: string }) => r.taskId)).toEqual([cutId]);
      const second = await getJson(
        sb,
        `${HISTORY}?page=2&page_size=1&model=llm&start_time=${start}&end_time=${end}`,
      );
      expect(second.json.data.data.map((r: { taskId: string }) => r.taskId)).toEqual([songId]);
      const faces = await getJson(sb, `${HISTORY}?page=1&page_size=20&model=image_toolkit`);
      expect(faces.json.data.data.map((r: { taskId: string }) => r.taskId)).toEqual([faceId]);
      const before = await getJson(sb, `${HISTORY}?page=1&page_size=20&start_time=1&end_time=${start - 10}`);
      expect(before.json.data).toMatchObject({ total: 0, data: [] });

      await waitForEnd(sb, faceId);
      const done = await getJson(sb, `${HISTORY}?page=1&page_size=20&model=image_toolkit`);
      // in the units the hosted service reports: points of 1e-7 USD for a face swap, llm units
      // (1e-6 USD) for a song, as its task records say (hosted-record.ts)
      expect(done.json.data.data[0]).toMatchObject({
        status: 'finished',
        usage: FACE_SWAP_POINTS * HOSTED_POINTS_PER_MICRO,
        usageType: 'point',
      });
      const record = (await getJson(sb, `/api/v1/task/${faceId}`)).json.data;
      expect(record.meta.usage).toMatchObject({ type: 'point', consume: done.json.data.data[0].usage });
      await waitForEnd(sb, songId);
      const sung = await getJson(sb, `${HISTORY}?page=1&page_size=20&model=llm`);
      const songRow = sung.json.data.data.find((r: { taskId: string }) => r.taskId === songId);
      expect(songRow).toMatchObject({ status: 'finished', usage: SONG_MICROS, usageType: 'llm' });

      expect((await getJson(sb, `${HISTORY}?page=1&page_size=101`)).status).toBe(400);
      expect((await getJson(sb, `${HISTORY}?page=0&page_size=10`)).status).toBe(400);
      expect((await getJson(sb, `${HISTORY}?page=1&page_size=10`, 'wrong')).status).toBe(401);
    });
  });

  it('counts the running tasks per family (staged, pending, processing) and carries the account fields public clients read', async () => {
    await withSandbox({ timeScale: 0.05, concurrencyLimit: 1 }, async (sb) => {
      const first = taskIdOfCreate(await postTask(sb, song('active one')));
      taskIdOfCreate(await postTask(sb, song('active two')));
      const active = await getJson(sb, ACTIVE);
      expect(active.status, active.text).toBe(200);
      const llm = active.json.data.find((f: { model: string }) => f.model === 'llm');
      expect(llm).toMatchObject({ staged_count: 1 });
      expect(llm.pending_count + llm.processing_count).toBe(1);
      expect((await getJson(sb, ACTIVE, null)).status).toBe(401);
      await waitForEnd(sb, first);
      // the spec profile's unit: every usage a point of 1 micro-dollar, as its task records say
      const listed = await getJson(sb, `${HISTORY}?page=1&page_size=20&model=llm`);
      const ended = listed.json.data.data.find((r: { taskId: string }) => r.taskId === first);
      expect(ended).toMatchObject({ status: 'finished', usage: SONG_MICROS, usageType: 'point' });

      const info = (await getJson(sb, ACCOUNT)).json.data;
      expect(info).toMatchObject({ name: 'sandbox', account_name: 'sandbox' });
      expect(info.id).toBe(info.account_id);
      expect(Array.isArray(info.credit_pack_info)).toBe(true);
    });
  });
});

function taskIdOfCreate(answer: { status: number; text: string; json: { data: { task_id: string } } }) {
  expect(answer.status, answer.text).toBe(200);
  return answer.json.data.task_id;
}
