/**
 * The account's value of a point (`equivalent_in_usd / credits` of `GET /account/info`), read
 * when a task ends with a charge to convert, at most once every 10 minutes (a failed read too:
 * then the value per usage type stands in, billed-cost.ts). Forgotten when the service's address
 * or key changes (TaskEngine.setService): another account may value a point otherwise. Never throws.
 */
import { accountMicrosPerPoint } from '../../../shared/task/billed-cost.ts';
import type { ServiceClient } from '../../service/index.ts';

/** How long a read (or a failed one) stands before the account is asked again. */
export const POINT_VALUE_REFRESH_MS = 10 * 60_000;

export class AccountPointValue {
  #micros: number | null = null;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | null = null;
  /** Counts forget() calls: a read begun before one must not set the value it forgot. */
  #generation = 0;

  /** Micro-dollars a point is worth by the account's figures; null when not known. */
  get micros(): number | null {
    return this.#micros;
  }

  /** Reads the account again when the last read is older than the refresh time. */
  refresh(client: ServiceClient, now: number): Promise<void> {
    if (this.#reading) return this.#reading;
    if (now - this.#readAt < POINT_VALUE_REFRESH_MS) return Promise.resolve();
    this.#readAt = now;
    const generation = this.#generation;
    const reading = client
      .getAccount()
      .then(
        (info) => {
          if (generation !== this.#generation) return; // the service changed while it was read
          // an account whose figures say nothing keeps the value read before
          this.#micros = accountMicrosPerPoint(info) ?? this.#micros;
        },
        () => undefined,
      )
      .finally(() => {
        if (this.#reading === reading) this.#reading = null;
      });
    this.#reading = reading;
    return reading;
  }

  /** Forgets the value (the service settings changed). */
  forget(): void {
    this.#generation += 1;
    this.#micros = null;
    this.#readAt = Number.NEGATIVE_INFINITY;
    this.#reading = null;
  }
}
