import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AbortedError,
  BadRequestError,
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  mayHaveBeenProcessed,
  NetworkError,
  PlanRefusedError,
  ProtocolError,
  parseRetryAfter,
  RateLimitedError,
  resolveRetryPolicy,
  ServerError,
  type ServiceError,
  shouldRetry,
  UnauthorizedError,
} from '../../src/core/service/index.ts';

const reached = new NetworkError('reset after send', { mayHaveReachedServer: true });
const notReached = new NetworkError('refused', { mayHaveReachedServer: false });
const limited = new RateLimitedError('429', { status: 429, retryAfterMs: 1000 });
const server = new ServerError('500', { status: 500 });
const bad = new BadRequestError('400', { status: 400 });
const unauthorized = new UnauthorizedError('401', { status: 401 });
const planRefused = new PlanRefusedError('403', { status: 403, serviceMessage: 'Insufficient plan level' });
const refusedInBody = new BadRequestError('500 in a 200', { status: 200, serviceCode: 500, inBody: true });
const protocol = new ProtocolError('not json', { status: 200, excerpt: '<html>' });

describe('shouldRetry', () => {
  it.each<[string, ServiceError, boolean, boolean]>([
    ['network, may have reached', reached, true, false],
    ['network, never reached', notReached, true, true],
    ['429', limited, true, true],
    ['5xx', server, true, false],
    ['400', bad, false, false],
    ['401', unauthorized, false, false],
    ['403, the plan', planRefused, false, false],
    ['5xx code in the body of a 200, no task', refusedInBody, false, false],
    ['malformed answer', protocol, false, false],
  ])('%s: get %s, create %s', (_name, error, get, create) => {
    expect(shouldRetry('get', error, 1)).toBe(get);
    expect(shouldRetry('create', error, 1)).toBe(create);
  });

  it('stops at maxAttempts', () => {
    const policy = resolveRetryPolicy({ maxAttempts: 3 });
    expect(shouldRetry('get', server, 2, policy)).toBe(true);
    expect(shouldRetry('get', server, 3, policy)).toBe(false);
    expect(shouldRetry('create', limited, 3, policy)).toBe(false);
  });

  it('does not wait inside a call for a Retry-After longer than maxRetryAfterMs', () => {
    const long = new RateLimitedError('429', { status: 429, retryAfterMs: 120_000 });
    expect(shouldRetry('get', long, 1)).toBe(false);
    expect(shouldRetry('get', long, 1, resolveRetryPolicy({ maxRetryAfterMs: 200_000 }))).toBe(true);
  });

  it('does not retry what is not a service error', () => {
    expect(shouldRetry('get', new Error('boom'), 1)).toBe(false);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially from the base with equal jitter and is capped', () => {
    const policy = resolveRetryPolicy({ baseDelayMs: 500, maxDelayMs: 8000 });
    expect(backoffDelay(1, policy, () => 0)).toBe(250);
    expect(backoffDelay(1, policy, () => 0.999999)).toBe(499);
    expect(backoffDelay(3, policy, () => 0)).toBe(1000);
    expect(backoffDelay(20, policy, () => 0)).toBe(4000);
    expect(backoffDelay(20, policy, () => 0.999999)).toBe(7999);
  });

  it('waits at least the Retry-After', () => {
    expect(backoffDelay(1, DEFAULT_RETRY_POLICY, () => 0, 3000)).toBe(3000);
    expect(backoffDelay(5, DEFAULT_RETRY_POLICY, () => 0, 10)).toBe(4000);
  });

  it('stays within [step/2, step] and above Retry-After for any attempt and random value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
        (attempt, r, retryAfter) => {
          const step = Math.min(8000, 500 * 2 ** (attempt - 1));
          const delay = backoffDelay(attempt, DEFAULT_RETRY_POLICY, () => r, retryAfter);
          expect(delay).toBeGreaterThanOrEqual(Math.max(Math.floor(step / 2), retryAfter ?? 0));
          expect(delay).toBeLessThanOrEqual(Math.max(step, retryAfter ?? 0));
        },
      ),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-04-18T10:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['3', '9'], now)).toBe(3000);
  });

  it('reads an HTTP date, and a past date as 0', () => {
    expect(parseRetryAfter('Fri, 18 Apr 2025 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Fri, 18 Apr 2025 09:59:00 GMT', now)).toBe(0);
  });

  it('gives null for absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('resolveRetryPolicy', () => {
  it('fills defaults and ignores invalid values', () => {
    expect(resolveRetryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
    expect(resolveRetryPolicy({ maxAttempts: 0, baseDelayMs: -1, maxDelayMs: Number.NaN })).toEqual(
      DEFAULT_RETRY_POLICY,
    );
    expect(resolveRetryPolicy({ maxAttempts: 2.7, baseDelayMs: 10 })).toMatchObject({
      maxAttempts: 2,
      baseDelayMs: 10,
    });
  });
});

describe('mayHaveBeenProcessed', () => {
  it('is false for refusals and for failures that never reached the service', () => {
    for (const error of [notReached, limited, bad, unauthorized, planRefused, refusedInBody])
      expect(mayHaveBeenProcessed(error)).toBe(false);
    expect(mayHaveBeenProcessed(new AbortedError('cancelled', { mayHaveReachedServer: false }))).toBe(false);
  });

  it('is true when the service may have done the work', () => {
    for (const error of [reached, server, protocol]) expect(mayHaveBeenProcessed(error)).toBe(true);
    expect(mayHaveBeenProcessed(new AbortedError('cancelled', { mayHaveReachedServer: true }))).toBe(true);
  });
});
