/** GET /account/info: the balance before, during and after a billed task, a failed task's refund, and the key check. */
import { describe, expect, it } from 'vitest';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.ts';
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
