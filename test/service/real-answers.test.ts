/**
 * The corpus of real service answers (real-answers.ts): every task record normalises to its id,
 * status and outputs, alone and through the client's answer mapping; every refusal maps to its
 * error class and quotes the service.
 */
import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  mayHaveBeenProcessed,
  PlanRefusedError,
  RateLimitedError,
  type ServiceError,
  UnauthorizedError,
} from '../../src/core/service/index.ts';
import { type HttpAnswer, readAnswer } from '../../src/core/service/response-mapping.ts';
import { createSecretScrubber } from '../../src/core/service/secret-scrubber.ts';
import { normaliseTaskResponse, type RemoteTask } from '../../src/shared/service/index.ts';
import {
  bodyOf,
  errorAnswers,
  REAL_ANSWERS,
  type RealAnswer,
  type RefusalClass,
  taskAnswers,
} from './real-answers.ts';
import { expectRemoteTaskShape } from './remote-task-shape.ts';

const CONTEXT = {
  operation: 'get' as const,
  scrubber: createSecretScrubber('sk-corpus-test-key-0123456789'),
  nowMs: Date.parse('2025-09-01T00:00:00Z'),
};

const CLASSES: Record<RefusalClass, abstract new (...args: never[]) => ServiceError> = {
  UnauthorizedError,
  PlanRefusedError,
  BadRequestError,
  RateLimitedError,
};

function httpAnswerOf(answer: RealAnswer): HttpAnswer {
  return {
    status: answer.httpStatus,
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(answer.body)),
  };
}

function taskOf(payload: unknown): RemoteTask {
  const result = normaliseTaskResponse(payload);
  if (!result.ok) throw new Error(`expected a task, got: ${result.reason}`);
  return result.task;
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the answer to be read as a refusal');
}

const SOURCE = /^(https:\/\/\S+|[\w.-]+\/[\w.-]+:\S+|field notes \(.+\))/;

describe('the corpus', () => {
  it('names a source and a note for every entry, and holds every kind of answer', () => {
    for (const answer of REAL_ANSWERS) {
      expect(answer.source, answer.name).toMatch(SOURCE);
      expect(answer.note.length, answer.name).toBeGreaterThan(0);
    }
    const kinds = new Set(REAL_ANSWERS.map((a) => a.kind));
    expect([...kinds].sort()).toEqual(['account', 'error', 'task', 'upload']);
    expect(new Set(REAL_ANSWERS.map((a) => a.name)).size).toBe(REAL_ANSWERS.length);
  });

  it('keeps the account and upload answers as data in the {code, data, message} envelope', () => {
    const account = REAL_ANSWERS.find((a) => a.kind === 'account');
    const upload = REAL_ANSWERS.find((a) => a.kind === 'upload');
    expect(account?.body).toMatchObject({
      code: 200,
      data: {
        account_name: expect.any(String),
        credits: expect.any(Number),
        equivalent_in_usd: expect.any(Number),
      },
    });
    expect(upload?.body).toMatchObject({ code: 200, data: { url: expect.stringMatching(/^https:\/\//) } });
  });
});

describe.each(taskAnswers().map((a) => [a.name, a] as const))('task record: %s', (_name, answer) => {
  it('normalises to its id, status and outputs', () => {
    const task = taskOf(bodyOf(answer));
    expectRemoteTaskShape(task);
    expect(task.id).toBe(answer.expected.id);
    expect(task.status).toBe(answer.expected.status);
    expect(task.outputs.map(({ kind, url }) => ({ kind, url }))).toEqual(answer.expected.outputs);
  });

  it('is read as the same task through the client, whatever code the body carries', () => {
    const task = readAnswer(httpAnswerOf(answer), CONTEXT);
    expect(task.id).toBe(answer.expected.id);
    expect(task.status).toBe(answer.expected.status);
  });
});

describe.each(errorAnswers().map((a) => [a.name, a] as const))('refusal: %s', (_name, answer) => {
  it('maps to its error class, quotes the service, and says nothing was processed', () => {
    const error = thrownBy(() => readAnswer(httpAnswerOf(answer), CONTEXT));
    expect(error).toBeInstanceOf(CLASSES[answer.expected.errorClass]);
    const refusal = error as ServiceError;
    expect(refusal.message).toContain(answer.expected.quote);
    expect(refusal.status).toBe(answer.httpStatus);
    expect(refusal.retryable).toBe(answer.expected.errorClass === 'RateLimitedError');
    expect(mayHaveBeenProcessed(refusal)).toBe(false);
  });
});

describe('details the corpus shows', () => {
  const byName = (name: string) => {
    const answer = REAL_ANSWERS.find((a) => a.name === name);
    if (!answer) throw new Error(`no corpus entry ${name}`);
    return taskOf(bodyOf(answer));
  };

  it('reads times with microseconds and an offset as UTC', () => {
    const task = byName('ace-step fetch, completed');
    expect(task.createdAt).toBe('2025-06-11T03:43:31.673Z');
    expect(task.endedAt).toBe('2025-06-11T03:44:05.722Z');
    expect(task.usage).toEqual({ type: 'llm', frozen: 0, consume: 5000 });
  });

  it('reads ended_at null and the zero time as "not yet", and a placeholder time as unknown', () => {
    expect(byName('ace-step fetch, processing, ended_at null').endedAt).toBeNull();
    const pending = byName('video-toolkit background-remove create, pending');
    expect([pending.startedAt, pending.endedAt]).toEqual([null, null]);
    expect(pending.createdAt).toBe('2025-07-25T14:41:18.465Z');
    expect(byName('music-u create, pending, logs null').createdAt).toBeNull();
  });

  it('keeps the service error of a failed record', () => {
    const failed = byName('music-u failed, in an answer with code 500');
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 10000, message: 'failed to pre-process task runtime' });
    expect(failed.input).toBeNull();
  });

  it('reads an empty create status as pending, and an error code with no message as no error (flux)', () => {
    const created = byName('flux txt2img create: empty status, error code 1100 with no message');
    expect([created.status, created.serviceStatus, created.error]).toEqual(['pending', '', null]);
    // the same code with words, or in a failed record, is the service's error
    const said = taskOf({
      code: 200,
      data: { task_id: 'f1', status: 'failed', output: null, error: { code: 1100, message: '' } },
    });
    expect(said.error).toMatchObject({ code: 1100, message: 'error 1100' });
  });

  it('reads every output field of a 3D model, and any http(s) address under output when no field names one', () => {
    const trellis = byName(
      'trellis image-to-3d fetch, completed: model_file, combined_video, no_background_image',
    );
    expect(trellis.outputs.map((o) => o.field)).toEqual([
      'output.model_file',
      'output.combined_video',
      'output.no_background_image',
    ]);
    const deep = byName('kling video, completed: the result deep under output.works');
    expect(deep.outputs.map((o) => o.field)).toEqual([
      'output.works[0].cover.resource',
      'output.works[0].video.resource',
      'output.works[0].video.resource_without_watermark',
    ]);
  });

  it('keeps the service status word while normalising it', () => {
    const swapped = byName('face-swap fetch, completed');
    expect(swapped.status).toBe('completed');
    expect(swapped.serviceStatus).toBe('completed');
  });
});
