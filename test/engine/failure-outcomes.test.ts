/**
 * What the engine decides when a create or a status fetch fails: the plan refusal fails a create
 * without holding the queue, refusals in a 200 body are refusals (never "money in doubt"), and an
 * unreadable answer about a task is read again (soon, backing off to every minute) with a sentence a person can read,
 * until 30 in a row span 6 hours: then the task fails with the last reason.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AUTH_PROBLEM,
  pollOutcome,
  SLOW_RETRY_MS,
  submissionOutcome,
  UNREADABLE_LIMIT,
} from '../../src/core/engine/failure-outcomes.ts';
import {
  BadRequestError,
  NetworkError,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
} from '../../src/core/service/index.ts';
import { readAnswer } from '../../src/core/service/response-mapping.ts';
import { createSecretScrubber } from '../../src/core/service/secret-scrubber.ts';

const plan = new PlanRefusedError(
  'Your plan at the service does not allow this (HTTP 403): Insufficient plan level',
  {
    status: 403,
    serviceMessage: 'Insufficient plan level',
  },
);
const bodyRefusal = (code: number, words: string) =>
  new BadRequestError(`The service rejected the request (code ${code} in an HTTP 200 answer): ${words}`, {
    status: 200,
    serviceMessage: words,
    serviceCode: code,
    inBody: true,
  });
const unreadable = new ProtocolError('The service answered with something that is not JSON: "<html>"', {
  status: 200,
  excerpt: '<html>',
  reason: 'it is not JSON',
});

/** The wait the engine used before this change for errors that are not classified otherwise. */
const previousWait = (pollCount: number) => Math.min(60_000, 2_000 * 2 ** Math.min(5, pollCount));

describe('submissionOutcome', () => {
  it('fails a create the plan refuses, naming the plan and quoting the service', () => {
    const outcome = submissionOutcome(plan);
    expect(outcome.action).toBe('fail');
    expect(outcome.error.kind).toBe('plan-refused');
    expect(outcome.error.code).toBe(403);
    expect(outcome.error.message).toMatch(/plan/);
    expect(outcome.error.message).toContain('Insufficient plan level');
    expect(outcome.error.message).not.toContain(AUTH_PROBLEM);
  });

  it('still holds the queue for a refused key (401), which a new key can fix', () => {
    const outcome = submissionOutcome(
      new UnauthorizedError('The service refused the API key (HTTP 401).', { status: 401 }),
    );
    expect(outcome).toMatchObject({ action: 'requeue', cause: 'unauthorized', error: { code: 401 } });
  });

  it('fails a create refused in the body of a 200, with the code the body gave, even a 5xx', () => {
    for (const code of [400, 422, 500]) {
      const outcome = submissionOutcome(bodyRefusal(code, 'failed to pre-process task runtime'));
      expect(outcome.action).toBe('fail');
      expect(outcome.error).toMatchObject({ kind: 'bad-request', code });
      expect(outcome.error.message).toContain('failed to pre-process task runtime');
    }
  });

  it('keeps a create whose answer cannot be read, or a 5xx status, in doubt', () => {
    expect(submissionOutcome(unreadable).action).toBe('uncertain');
    expect(submissionOutcome(new ServerError('500', { status: 500 })).action).toBe('uncertain');
  });
});

describe('pollOutcome', () => {
  it('keeps reading a task the plan does not let it read, slowly, saying so', () => {
    const outcome = pollOutcome(plan, 3);
    expect(outcome).toMatchObject({ action: 'retry', retryInMs: SLOW_RETRY_MS, cause: 'plan-refused' });
    if (outcome.action !== 'retry') throw new Error('expected a retry');
    expect(outcome.error?.kind).toBe('plan-refused');
    expect(outcome.error?.message).toMatch(/plan .* does not allow reading this task/);
    expect(outcome.error?.message).toContain('Insufficient plan level');
  });

  it('explains an unreadable answer in a sentence, checks again soon, then backs off to a minute', () => {
    expect(pollOutcome(unreadable, 0)).toMatchObject({ action: 'retry', retryInMs: 2_000 });
    const late = pollOutcome(unreadable, 7);
    expect(late.action === 'retry' && late.error?.message).toMatch(/checking again in a minute\.$/);
    const outcome = pollOutcome(unreadable, 9);
    expect(outcome).toMatchObject({ action: 'retry', retryInMs: 60_000, cause: 'transient' });
    if (outcome.action !== 'retry') throw new Error('expected a retry');
    expect(outcome.error).toEqual({
      kind: 'protocol',
      message:
        "The service's answer about this task could not be read (it is not JSON); checking again in a minute.",
      code: 200,
    });
  });

  it('never gives up on one unreadable answer, never waits more than a minute, never reads faster than before', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000 }), fc.string(), (pollCount, reason) => {
        const error = new ProtocolError('unreadable', { status: 200, excerpt: '', reason: reason || 'x' });
        const outcome = pollOutcome(error, pollCount);
        expect(outcome.action).toBe('retry');
        if (outcome.action !== 'retry' || typeof outcome.retryInMs !== 'number')
          throw new Error('expected a wait');
        expect(outcome.retryInMs).toBeLessThanOrEqual(60_000);
        expect(outcome.retryInMs).toBeGreaterThanOrEqual(previousWait(pollCount));
        expect(outcome.error?.message).toMatch(
          /^The service's answer about this task could not be read \(.*\); checking again in (a minute|\d+ s)\.$/s,
        );
      }),
    );
  });

  it('gives up on unreadable answers only when 30 in a row span 6 hours, with the last reason', () => {
    const now = Date.UTC(2026, 0, 1, 12);
    const hours = (h: number) => now - h * 3_600_000;
    expect(UNREADABLE_LIMIT).toEqual({ answers: 30, spanMs: 6 * 3_600_000 });
    // this answer is the 30th, the first came 6 hours ago: failed, saying why
    const given = pollOutcome(unreadable, 40, { count: 29, since: hours(6), nowMs: now });
    expect(given).toEqual({
      action: 'fail',
      error: {
        kind: 'protocol',
        message:
          "the service's answers about this task could not be read for over 6 hours (30 answers in a row; the last: it is not JSON), so the app stopped asking. The task may still have run (and been billed) at the service.",
        code: 200,
      },
      detail: 'the answers about the task could not be read for 6 hours',
    });
    // many answers in less than 6 hours, or 6 hours with fewer (a computer that slept): asked again
    const soon = pollOutcome(unreadable, 40, { count: 300, since: hours(5.99), nowMs: now });
    expect(soon).toMatchObject({ action: 'retry', unreadable: { count: 301, since: hours(5.99) } });
    expect(pollOutcome(unreadable, 40, { count: 28, since: hours(30), nowMs: now }).action).toBe('retry');
    // the first of a run starts its clock now
    expect(pollOutcome(unreadable, 0, { count: 0, since: null, nowMs: now })).toMatchObject({
      action: 'retry',
      unreadable: { count: 1, since: now },
    });
  });

  it('reads an answer the normaliser rejects into that sentence, naming the field', () => {
    const context = {
      operation: 'get' as const,
      scrubber: createSecretScrubber('sk-outcomes-0123456789'),
      nowMs: 0,
    };
    const body = Buffer.from(JSON.stringify({ code: 200, data: { task_id: 't-1', status: 2 } }));
    let error: unknown;
    try {
      readAnswer({ status: 200, headers: {}, body }, context);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ProtocolError);
    const outcome = pollOutcome(error, 4);
    if (outcome.action !== 'retry') throw new Error('expected a retry');
    expect(outcome.error?.message).toMatch(
      /^The service's answer about this task could not be read \(task record rejected: data\.status/,
    );
  });

  it('fails a task the service does not know, whether it said so in the status or in the body', () => {
    expect(
      pollOutcome(new BadRequestError('404', { status: 404, serviceMessage: 'task not found' }), 1),
    ).toMatchObject({
      action: 'fail',
      error: { kind: 'not-found', code: 404 },
    });
    expect(pollOutcome(bodyRefusal(404, 'task not found'), 1)).toMatchObject({
      action: 'fail',
      error: { kind: 'not-found', code: 404 },
    });
  });

  it('keeps reading after a server failure given in the body, as before', () => {
    const outcome = pollOutcome(bodyRefusal(500, 'busy'), 2);
    expect(outcome).toMatchObject({ action: 'retry', retryInMs: previousWait(2), cause: 'transient' });
  });

  it('leaves the other outcomes as they were', () => {
    expect(pollOutcome(new UnauthorizedError('401', { status: 401 }), 0)).toMatchObject({
      action: 'retry',
      retryInMs: 5_000,
      cause: 'unauthorized',
    });
    expect(pollOutcome(new RateLimitedError('429', { status: 429, retryAfterMs: 3_000 }), 0)).toMatchObject({
      retryInMs: 3_000,
      cause: 'rate-limited',
    });
    expect(pollOutcome(new NetworkError('refused', { mayHaveReachedServer: false }), 0)).toMatchObject({
      retryInMs: 'offline-backoff',
      cause: 'unreachable',
    });
  });
});
