/**
 * Checks what callers hand the store against a zod schema, turning a failure into one readable
 * LibraryStoreError (`Invalid task patch: nextPollAt: expected int…`).
 */
import type { z } from 'zod';
import { LibraryStoreError } from './store-errors.ts';

export function checkedInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || what}: ${i.message}`).join('; ');
    throw new LibraryStoreError(`Invalid ${what}: ${detail}`);
  }
  return parsed.data;
}
