/**
 * A task input was refused. `message` is the full text shown to the user and names the field
 * (`target_image: file is empty`); `detail` is the same without the `<field>: ` prefix.
 */
export class InputValidationError extends Error {
  override name = 'InputValidationError';
  readonly field: string;
  readonly detail: string;

  /** `message` is used as given; write it as `<field>: <problem>` (see inputProblem). */
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
    const prefix = `${field}: `;
    this.detail = message.startsWith(prefix) ? message.slice(prefix.length) : message;
  }
}

/** An InputValidationError whose message is `<field>: <detail>`. */
export function inputProblem(field: string, detail: string): InputValidationError {
  return new InputValidationError(field, `${field}: ${detail}`);
}

const KIB = 1024;
const MIB = 1024 * 1024;

/** "31.0 MB", "12.5 KB", "900 bytes" (binary units, as file managers on most systems count). */
export function formatByteSize(bytes: number): string {
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MB`;
  if (bytes >= KIB) return `${(bytes / KIB).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** A limit as it is usually written: "20 MB", not "20.0 MB". */
export function formatByteLimit(bytes: number): string {
  return formatByteSize(bytes).replace(/\.0 /, ' ');
}

/** "is 31.0 MB; the limit is 20 MB", with exact byte counts when rounding would hide the excess. */
export function describeOverLimit(size: number, limit: number): string {
  const shownSize = formatByteSize(size);
  const shownLimit = formatByteLimit(limit);
  if (shownSize.replace(/\.0 /, ' ') === shownLimit) return `is ${size} bytes; the limit is ${limit} bytes`;
  return `is ${shownSize}; the limit is ${shownLimit}`;
}
