/**
 * Rebuilds a StudioError from whatever a failed bridge call threw: an Error carrying `kind` and
 * `field` (the browser harness), an Error whose message is the JSON of the StudioErrorView (the
 * preload: contextBridge keeps only an Error's message), or anything else. Pure.
 */
import { StudioError } from '../../../shared/index.ts';

const ELECTRON_PREFIX = /^Error invoking remote method '[^']*':\s*(?:[A-Za-z]*Error:\s*)?/;

export function toStudioError(thrown: unknown): StudioError {
  if (thrown instanceof StudioError) return thrown;
  const record = (thrown && typeof thrown === 'object' ? thrown : {}) as {
    kind?: unknown;
    field?: unknown;
    message?: unknown;
  };
  let message =
    typeof record.message === 'string'
      ? record.message
      : typeof thrown === 'string'
        ? thrown
        : 'Something went wrong';
  message = message.replace(ELECTRON_PREFIX, '');
  if (typeof record.kind === 'string') {
    return new StudioError({
      kind: record.kind,
      message,
      field: typeof record.field === 'string' ? record.field : null,
    });
  }
  const embedded = /^\s*(\{.*"kind".*\})\s*$/s.exec(message);
  if (embedded?.[1]) {
    try {
      const view = JSON.parse(embedded[1]) as { kind?: unknown; message?: unknown; field?: unknown };
      if (typeof view.kind === 'string' && typeof view.message === 'string') {
        return new StudioError({
          kind: view.kind,
          message: view.message,
          field: typeof view.field === 'string' ? view.field : null,
        });
      }
    } catch {
      // not a serialised error view: keep the text
    }
  }
  return new StudioError({ kind: 'internal', message, field: null });
}
