/**
 * Turns whatever a call threw into the StudioErrorView the renderer sees: a kind, a message a
 * user can act on and the field it is about. Never a stack, never the key: every message passes
 * the scrubber, and errors we did not expect become a generic `internal` message (the real one
 * goes to stderr, scrubbed too).
 */

import {
  BudgetExceededError,
  HistoryUnavailableError,
  PriceUnknownError,
  TaskActionError,
} from '../../core/engine/index.ts';
import { InputValidationError, UnsafePathError } from '../../core/inputs/index.ts';
import { LibraryBusyError } from '../../core/library/index.ts';
import { PlanRefusedError, ServiceError, UnauthorizedError } from '../../core/service/index.ts';
import { InvalidCursorError, LibraryStoreError } from '../../core/store/index.ts';
import type { StudioErrorView } from '../../shared/index.ts';

/** An error a call raises on purpose, with its kind and field. */
export class StudioCallError extends Error {
  readonly kind: string;
  readonly field: string | null;
  constructor(kind: string, message: string, field: string | null = null) {
    super(message);
    this.name = 'StudioCallError';
    this.kind = kind;
    this.field = field;
  }
}

export const INTERNAL_MESSAGE = 'something went wrong inside the app; the details were written to its log';

export function errorViewOf(
  err: unknown,
  scrub: (text: string) => string,
  log: (line: string) => void,
): StudioErrorView {
  const view = (kind: string, message: string, field: string | null = null): StudioErrorView => ({
    kind,
    message: scrub(message),
    field,
  });
  if (err instanceof StudioCallError) return view(err.kind, err.message, err.field);
  if (err instanceof InputValidationError) return view('invalid-input', err.message, err.field);
  if (err instanceof UnsafePathError) return view('unsafe-path', err.message, err.field);
  if (err instanceof BudgetExceededError) return view('budget', err.message);
  if (err instanceof PriceUnknownError) return view('price-unknown', err.message);
  if (err instanceof TaskActionError) return view('not-allowed', err.message);
  if (err instanceof HistoryUnavailableError) return view('no-history', err.message);
  if (err instanceof UnauthorizedError) return view('unauthorized', err.message);
  if (err instanceof PlanRefusedError) return view('plan-refused', err.message);
  if (err instanceof ServiceError) return view('service', err.message);
  if (err instanceof InvalidCursorError) return view('invalid-input', `cursor: ${err.message}`, 'cursor');
  if (err instanceof LibraryBusyError) return view('library-busy', err.message);
  if (err instanceof LibraryStoreError) return view('library', err.message);
  const detail = err instanceof Error ? `${err.name}: ${err.message}\n${err.stack ?? ''}` : String(err);
  log(scrub(`studio backend: unexpected error: ${detail}`));
  return view('internal', INTERNAL_MESSAGE);
}
