/**
 * The account's value of a point (`equivalent_in_usd / credits` of `GET /account/info`), read
 * when a task ends with a charge to convert, at most once every 10 minutes (a failed read too:
 * then the value per usage type stands in, billed-cost.ts). Never throws.
 */
import { accountMicrosPerPoint } from '../../../shared/task/billed-cost.ts';
import type { ServiceClient } from '../../service/index.ts';

/** How long a read (or a failed one) stands before the account is asked again. */
export const POINT_VALUE_REFRESH_MS = 10 * 60_000;

export class AccountPointValue {
  #micros: number | null = null;
  #readAt = Number.NEGATIVE_INFINITY;
  #reading: Promise<void> | null = null;

  /** Micro-dollars a point is worth by the account's figures; null when not known. */
  get micros(): number | null {
    return this.#micros;
  }

  /** Reads the account again when the last read is older than the refresh time. */
  refresh(client: ServiceClient, now: number): Promise<void> {
    if (this.#reading) return this.#reading;
    if (now - this.#readAt < POINT_VALUE_REFRESH_MS) return Promise.resolve();
    this.#readAt = now;
    this.#reading = client
      .getAccount()
      .then(
        (info) => {
          // an account whose figures say nothing keeps the value read before
          this.#micros = accountMicrosPerPoint(info) ?? this.#micros;
        },
        () => undefined,
      )
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }

  /** Forgets the value (the service settings changed). */
  forget(): void {
    this.#micros = null;
    this.#readAt = Number.NEGATIVE_INFINITY;
  }
}
