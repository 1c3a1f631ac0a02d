import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTerminalStatus, normaliseTaskResponse } from '../../src/shared/service/index.ts';
import { taskAnswers } from './real-answers.ts';
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

  it('accepts every valid payload with random extra fields', () => {
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
        },
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it('normalises any status string: trimmed, lower-cased, other spellings read as the known status', () => {
    const aliases: Record<string, string> = {
      success: 'completed',
      succeeded: 'completed',
      finished: 'completed',
      canceled: 'cancelled',
      error: 'failed',
      in_progress: 'processing',
      starting: 'pending',
      // an empty status (a flux create answer) is pending
      '': 'pending',
    };
    const spelling = fc.oneof(
      fc.string(),
      fc.constantFrom(...Object.keys(aliases), 'Completed', 'FAILED', 'Cancelled', 'staged', 'retry'),
    );
    const padded = fc
      .tuple(fc.constantFrom('', ' ', '\t'), spelling, fc.constantFrom('', ' '))
      .map(([before, word, after]) => `${before}${word}${after}`);
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), padded, fc.boolean(), (name, status, upper) => {
        const raw = upper ? status.toUpperCase() : status;
        const payload = structuredClone(PAYLOADS[name]) as Record<string, unknown>;
        const holder = (name === 'imageEditCreate' ? payload : payload.data) as Record<string, unknown>;
        holder.status = raw;
        const result = checkResult(payload);
        expect(result.ok).toBe(true);
        if (result.ok) {
          const word = raw.trim().toLowerCase();
          const expected = Object.hasOwn(aliases, word) ? (aliases[word] as string) : word;
          expect(result.task.status).toBe(expected);
          expect(result.task.serviceStatus).toBe(word);
          expect(isTerminalStatus(result.task.status)).toBe(
            ['completed', 'failed', 'cancelled'].includes(expected),
          );
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

/** Valid records: the hand-written payloads and the task records of the real-answer corpus. */
const RECORDS: Record<string, unknown> = {
  ...PAYLOADS,
  ...Object.fromEntries(taskAnswers().map((a) => [`real: ${a.name}`, a.body])),
};

/** The paths a record cannot do without: the task's id and status, and `data` that holds them. */
function isRequiredPath(path: Path): boolean {
  const key = path.join('.');
  return ['task_id', 'status', 'data', 'data.task_id', 'data.status'].includes(key);
}

function optionalPathsOf(record: unknown): Path[] {
  return pathsOf(record).filter((path) => !isRequiredPath(path));
}

/** Sets `path` to null unless a parent on the way is no longer an object (nulled earlier). */
function nullAt(root: unknown, path: Path): void {
  let parent: unknown = root;
  for (const key of path.slice(0, -1)) {
    if (parent === null || typeof parent !== 'object') return;
    parent = (parent as Record<string | number, unknown>)[key];
  }
  if (parent === null || typeof parent !== 'object') return;
  (parent as Record<string | number, unknown>)[path[path.length - 1] as string | number] = null;
}

function idAndStatusOf(record: unknown) {
  const result = normaliseTaskResponse(record);
  if (!result.ok) throw new Error(`a valid record was rejected: ${result.reason}`);
  return { id: result.task.id, status: result.task.status };
}

describe('normaliseTaskResponse with nulls (the real service sends them anywhere)', () => {
  it('reads every record with any one optional field set to null, with the same id and status', () => {
    for (const [name, record] of Object.entries(RECORDS)) {
      const expected = idAndStatusOf(record);
      for (const path of optionalPathsOf(record)) {
        const copy = structuredClone(record);
        nullAt(copy, path);
        const result = checkResult(copy);
        if (!result.ok) throw new Error(`${name}: ${path.join('.')} = null rejected: ${result.reason}`);
        expect({ id: result.task.id, status: result.task.status }).toEqual(expected);
      }
    }
  });

  it('reads every record with any set of optional fields set to null, with the same id and status', () => {
    const nulled = fc.constantFrom(...Object.keys(RECORDS)).chain((name) =>
      fc.record({
        name: fc.constant(name),
        paths: fc.subarray(optionalPathsOf(RECORDS[name]), { minLength: 1 }),
      }),
    );
    fc.assert(
      fc.property(nulled, ({ name, paths }) => {
        const record = RECORDS[name];
        const copy = structuredClone(record);
        for (const path of paths) nullAt(copy, path);
        const result = checkResult(copy);
        expect(result.ok).toBe(true);
        if (result.ok) {
          expect({ id: result.task.id, status: result.task.status }).toEqual(idAndStatusOf(record));
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
