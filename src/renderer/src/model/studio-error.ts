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

/**
 * A message as a sentence for a toast, a banner or a row: the first letter in capitals when the
 * message starts with a plain word (`the service refused…` → `The service refused…`). A message
 * that starts with a field path, a code or an address (`input.duration …`, `image1: …`,
 * `https://…`) is left as it is, and so is one that already starts with a capital.
 */
export function asSentence(message: string): string {
  const text = message.trim();
  const word = /^[a-z][a-z'’-]*(?=$|[\s,;!?)]|:(?!\/\/)|\.(?:\s|$))/.exec(text);
  return word ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** What a failed call says to a person: its message as a sentence. */
export function errorText(thrown: unknown): string {
  return asSentence(toStudioError(thrown).message);
}

/** The input field a failure message names (`… input.duration must be…`, `image1: …`), if any. */
export function fieldNamedIn(message: string): string | null {
  const named =
    /\binput\.([a-z][a-z0-9_]*)/.exec(message) ?? /^([a-z][a-z0-9_]*\d|[a-z]+_[a-z0-9_]+):/.exec(message);
  return named?.[1] ?? null;
}
