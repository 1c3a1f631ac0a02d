import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseTaskResponse } from '../../src/shared/service/index.ts';
import { expectRemoteTaskShape } from './remote-task-shape.ts';
import { allValidPayloads } from './wire-payloads.ts';

const NUM_RUNS = 400;

/** Calls the normaliser, failing the property if it throws, and checks the result's shape. */
function checkResult(payload: unknown) {
  let result: ReturnType<typeof normaliseTaskResponse>;
  try {
    result = normaliseTaskResponse(payload);
  } catch (error) {
    throw new Error(`normaliseTaskResponse threw: ${String(error)}`);
  }
  if (result.ok) {
    expectRemoteTaskShape(result.task);
    expect(result.task.raw).toBe(payload);
  } else {
    expect(typeof result.reason).toBe('string');
    expect(result.reason.length).toBeGreaterThan(0);
  }
  return result;
}

type Path = (string | number)[];

/** Every path to a value inside a JSON-like object. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

function mutate(
  root: unknown,
  path: Path,
  action: { remove: true } | { remove: false; value: unknown },
): unknown {
  const copy = structuredClone(root);
  let parent: unknown = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
  const last = path[path.length - 1] as string | number;
  const holder = parent as Record<string | number, unknown>;
  if (action.remove) {
    if (Array.isArray(holder)) holder.splice(Number(last), 1);
    else delete holder[last];
  } else {
    holder[last] = action.value;
  }
  return copy;
}

const PAYLOADS = allValidPayloads();
const NAMES = Object.keys(PAYLOADS);

/** A valid payload with one field removed or replaced by something of another type. */
const mutatedPayload = fc
  .constantFrom(...NAMES)
  .chain((name) => {
    const payload = PAYLOADS[name];
    const paths = pathsOf(payload);
    return fc.record({
      payload: fc.constant(payload),
      path: fc.constantFrom(...paths),
      action: fc.oneof(
        fc.constant({ remove: true as const }),
        fc.record({ remove: fc.constant(false as const), value: fc.anything() }),
        fc.record({ remove: fc.constant(false as const), value: fc.jsonValue() }),
      ),
    });
  })
  .map(({ payload, path, action }) => mutate(payload, path, action));

describe('normaliseTaskResponse under random input', () => {
  it('never throws on anything', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withBoxedValues: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withTypedArray: true,
        }),
        (payload) => {
          checkResult(payload);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('never throws on JSON values, nor on envelopes with a random data', () => {
    const envelope = fc.record(
      { code: fc.anything(), message: fc.anything(), data: fc.jsonValue(), task_id: fc.anything() },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), envelope), (payload) => {
        checkResult(payload);
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('returns a well-typed task or a reason for valid payloads with one field removed or retyped', () => {
    fc.assert(
      fc.property(mutatedPayload, (payload) => {
        checkResult(payload);
      }),
      { numRuns: NUM_RUNS * 2 },
    );
  });

  it('accepts every valid payload with random extra fields and keeps them in raw', () => {
    const extraKey = fc
      .string({ minLength: 1, maxLength: 12 })
      .filter((k) => !/^(data|task_id|status|code|message|timestamp|created_at|__proto__)$/.test(k));
    fc.assert(
      fc.property(
        fc.constantFrom(...NAMES),
        fc.dictionary(extraKey, fc.jsonValue(), { maxKeys: 4 }),
        (name, extras) => {
          const payload = { ...structuredClone(PAYLOADS[name]), ...extras };
          const result = checkResult(payload);
          expect(result.ok).toBe(true);
          if (result.ok) expect(result.task.raw).toMatchObject(extras);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('lower-cases and trims any status string, and terminal means completed or failed', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), fc.string(), (name, status) => {
        const payload = structuredClone(PAYLOADS[name]) as Record<string, unknown>;
        const holder = (name === 'imageEditCreate' ? payload : payload.data) as Record<string, unknown>;
        holder.status = status;
        const result = checkResult(payload);
        expect(result.ok).toBe(true);
        if (result.ok) {
          expect(result.task.status).toBe(status.trim().toLowerCase());
          expect(result.task.terminal).toBe(['completed', 'failed'].includes(status.trim().toLowerCase()));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
