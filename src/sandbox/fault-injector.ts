/**
 * Seeded fault injection (options.ts FaultOptions). Call-level faults are drawn per create or
 * fetch request, always six numbers in a fixed order, so a seed replays exactly; task-level
 * faults (failure, early expiry) are drawn from a second stream at each accepted create; the
 * refusal inside an HTTP 200 from a third stream, one number per create request. The plan's
 * refusals (task types, uploads) are settings, not draws.
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

/** A create refused inside an HTTP 200: the body's `code` and `message`. */
export interface BodyRefusal {
  code: number;
  message: string;
}

const DEFAULT_BODY_REFUSAL: BodyRefusal = { code: 400, message: 'request refused (sandbox fault injection)' };

export class FaultInjector {
  private faults: FaultOptions = {};
  private callRandom: () => number = seededRandom(1);
  private taskRandom: () => number = seededRandom(2);
  private refusalRandom: () => number = seededRandom(3);

  constructor(faults: FaultOptions = {}) {
    this.set(faults);
  }

  set(faults: FaultOptions): void {
    this.faults = copyOf(faults);
    const seed = faults.seed ?? 1;
    this.callRandom = seededRandom(seed);
    this.taskRandom = seededRandom(seed ^ 0x5bd1e995);
    this.refusalRandom = seededRandom(seed ^ 0x27d4eb2f);
  }

  get(): FaultOptions {
    return copyOf(this.faults);
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

  /** The refusal inside an HTTP 200 for this create request, or null (one draw per create, always). */
  drawBodyRefusal(): BodyRefusal | null {
    const f = this.faults;
    const draw = this.refusalRandom();
    const applyTo = f.applyTo ?? 'all';
    if (applyTo === 'fetch' || !(draw < (f.bodyRefusalRate ?? 0))) return null;
    return {
      code: f.bodyRefusalCode ?? DEFAULT_BODY_REFUSAL.code,
      message: f.bodyRefusalMessage ?? DEFAULT_BODY_REFUSAL.message,
    };
  }

  /** Whether the account's plan refuses creates of this task type. */
  planRefuses(taskType: string): boolean {
    return this.faults.planRefusedTaskTypes?.includes(taskType) ?? false;
  }

  /** Whether the service has no task history (an older custom service: 404). */
  get noTaskHistory(): boolean {
    return this.faults.noTaskHistory === true;
  }

  /** Whether the account's plan has no uploads. */
  get uploadRefused(): boolean {
    return this.faults.uploadRefused === true;
  }

  /** Task-level faults of a newly accepted task (whatever `applyTo` says: they belong to the task). */
  drawTask(): TaskFaults {
    const fail = this.taskRandom() < (this.faults.taskFailureRate ?? 0);
    const earlyExpiry = this.taskRandom() < (this.faults.earlyExpiryRate ?? 0);
    return { fail, earlyExpiry };
  }
}

/** A copy that shares no array with the caller's object. */
function copyOf(faults: FaultOptions): FaultOptions {
  const copy = { ...faults };
  if (faults.planRefusedTaskTypes) copy.planRefusedTaskTypes = [...faults.planRefusedTaskTypes];
  return copy;
}
