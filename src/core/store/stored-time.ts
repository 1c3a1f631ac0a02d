/**
 * Timestamps are stored as ISO text in UTC (`2025-01-02T03:04:05.678Z`) so that text order is time
 * order, whatever offset the caller or the service wrote.
 */
import { LibraryStoreError } from './store-errors.ts';

export function toStoredIso(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new LibraryStoreError(`${field} is not an ISO time: ${JSON.stringify(value)}`);
  return new Date(ms).toISOString();
}

export function toStoredIsoOrNull(value: string | null, field: string): string | null {
  return value === null ? null : toStoredIso(value, field);
}
