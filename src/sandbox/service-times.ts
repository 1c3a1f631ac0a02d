/** Timestamps as the service writes them. */

/** The service's "not yet" time (field notes): `started_at` / `ended_at` before a task starts. */
export const ZERO_TIME = '0001-01-01T00:00:00Z';

/** ISO 8601 with an explicit UTC offset, e.g. `2026-11-22T13:01:02.123+00:00`. */
export function isoWithOffset(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, -1)}+00:00`;
}

/** ISO 8601 with an offset, or the zero time when the moment has not come. */
export function isoOrZero(ms: number | null): string {
  return ms === null ? ZERO_TIME : isoWithOffset(ms);
}

/** Unix seconds. */
export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
