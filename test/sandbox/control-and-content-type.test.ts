/** A create body with a content type other than JSON answers 415; bad fault options answer 400 and change nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { KEY, startTestSandbox } from './sandbox-http.ts';

let sb: Sandbox;

beforeAll(async () => {
  sb = await startTestSandbox();
});

afterAll(async () => {
  await sb.stop();
});

const SONG = JSON.stringify({
  model: 'service/ace-step',
  task_type: 'txt2audio',
  input: { style_prompt: 'lofi', duration: 5 },
});

async function create(contentType: string | null) {
  const headers: Record<string, string> = { 'x-api-key': KEY };
  if (contentType !== null) headers['content-type'] = contentType;
  // bytes, so fetch adds no content type of its own
  const body = new TextEncoder().encode(SONG);
  const res = await fetch(`${sb.url}/api/v1/task`, { method: 'POST', headers, body });
  return { status: res.status, json: (await res.json()) as { message: string } };
}

describe('create content type', () => {
  it('refuses a body that is not declared as JSON with 415 naming content-type, and bills nothing', async () => {
    const before = sb.ledger().length;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await create(type);
      expect(answer.status).toBe(415);
      expect(answer.json.message).toContain('content-type');
      expect(answer.json.message).toContain(type);
    }
    expect(sb.ledger().length).toBe(before);
  });

  it('accepts application/json with a charset, and a request without the header', async () => {
    expect((await create('application/json; charset=utf-8')).status).toBe(200);
    expect((await create(null)).status).toBe(200);
  });
});

describe('PUT /_sandbox/faults', () => {
  async function put(body: string) {
    const res = await fetch(`${sb.url}/_sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, json: (await res.json()) as { message?: string; faults?: unknown } };
  }

  it('answers 400 naming the key for a rate out of range or an unknown key, keeping the faults as they were', async () => {
    expect((await put('{"serverErrorRate":0.25}')).status).toBe(200);
    const outOfRange = await put('{"taskFailureRate":5}');
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.json.message).toMatch(/taskFailureRate must be between 0 and 1/);
    const unknown = await put('{"taskFailRate":1}');
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toMatch(/unknown key 'taskFailRate'/);
    const notNumber = await put('{"slowMs":"10"}');
    expect(notNumber.status).toBe(400);
    expect(notNumber.json.message).toMatch(/slowMs must be a number/);
    const kept = await fetch(`${sb.url}/_sandbox/faults`).then((r) => r.json());
    expect(kept).toEqual({ faults: { serverErrorRate: 0.25 } });
    expect((await put('{}')).status).toBe(200);
  });
});
