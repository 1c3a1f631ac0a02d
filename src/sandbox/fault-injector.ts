/**
 * Seeded fault injection (options.ts FaultOptions). Call-level faults are drawn per create or
 * fetch request, always six numbers in a fixed order, so a seed replays exactly; task-level
 * faults (failure, early expiry) are drawn from a second stream at each accepted create.
 */

import { seededRandom } from './media/index.ts';
import type { FaultOptions } from './options.ts';

export type CallKind = 'create' | 'fetch';

export type CallFault =
  | { kind: 'none' }
  | { kind: 'resetBeforeBody' }
  | { kind: 'serverError' }
  | { kind: 'rateLimit'; retryAfterSeconds: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'resetAfterBody' }
  | { kind: 'malformedJson' };

export interface TaskFaults {
  fail: boolean;
  earlyExpiry: boolean;
}

export class FaultInjector {
  private faults: FaultOptions = {};
  private callRandom: () => number = seededRandom(1);
  private taskRandom: () => number = seededRandom(2);

  constructor(faults: FaultOptions = {}) {
    this.set(faults);
  }

  set(faults: FaultOptions): void {
    this.faults = { ...faults };
    const seed = faults.seed ?? 1;
    this.callRandom = seededRandom(seed);
    this.taskRandom = seededRandom(seed ^ 0x5bd1e995);
  }

  get(): FaultOptions {
    return { ...this.faults };
  }

  get earlyExpiryMs(): number {
    return this.faults.earlyExpiryMs ?? 0;
  }

  /** The fault (at most one) for this create or fetch request. */
  drawCall(kind: CallKind): CallFault {
    const f = this.faults;
    const applyTo = f.applyTo ?? 'all';
    const draws = Array.from({ length: 6 }, () => this.callRandom());
    if (applyTo !== 'all' && applyTo !== kind) return { kind: 'none' };
    const hit = (i: number, rate: number | undefined) => (rate ?? 0) > 0 && draws[i]! < (rate ?? 0);
    if (hit(0, f.resetBeforeBodyRate)) return { kind: 'resetBeforeBody' };
    if (hit(1, f.serverErrorRate)) return { kind: 'serverError' };
    if (hit(2, f.rateLimitRate)) return { kind: 'rateLimit', retryAfterSeconds: f.retryAfterSeconds ?? 1 };
    if (hit(3, f.slowRate)) return { kind: 'slow', ms: f.slowMs ?? 1_000 };
    if (hit(4, f.resetAfterBodyRate)) return { kind: 'resetAfterBody' };
    if (hit(5, f.malformedJsonRate)) return { kind: 'malformedJson' };
    return { kind: 'none' };
  }

  /** Task-level faults of a newly accepted task (whatever `applyTo` says: they belong to the task). */
  drawTask(): TaskFaults {
    const fail = this.taskRandom() < (this.faults.taskFailureRate ?? 0);
    const earlyExpiry = this.taskRandom() < (this.faults.earlyExpiryRate ?? 0);
    return { fail, earlyExpiry };
  }
}
