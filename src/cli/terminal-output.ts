/**
 * The one way the command line prints. Strings from the service or from a file (a task's title,
 * its error, an account name, a library written elsewhere) may hold terminal control sequences:
 * an OSC 52 clipboard write, a window title, an erase. Text output drops them (tabs and line
 * breaks stay); JSON output keeps the data and writes every control character as `\u00XX`, which
 * JSON.stringify does for C0 only. No other file of src/cli writes to stdout or stderr (a test
 * in test/cli/cli-hostile-service.test.ts reads them).
 */
import { withoutControlSequences } from '../shared/index.ts';

/** DEL and the C1 controls, which JSON.stringify leaves as they are. */
const UNESCAPED_CONTROL = /[\x7f-\x9f]/g;

/** `value` as JSON (indented by `indent`) with no control character left raw. */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    UNESCAPED_CONTROL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Writes `text` to stdout without control sequences. */
export function printOut(text: string): void {
  process.stdout.write(withoutControlSequences(text));
}

/** Writes `text` to stderr without control sequences. */
export function printErr(text: string): void {
  process.stderr.write(withoutControlSequences(text));
}
