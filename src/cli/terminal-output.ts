/**
 * The one way the command line prints. Strings from the service or from a file (a task's title,
 * its error, an account name, a library written elsewhere) may hold terminal control sequences:
 * an OSC 52 clipboard write, a window title, an erase; or direction controls (U+202E) that make a
 * name read as another. Text output drops them (tabs and line breaks stay); JSON output keeps the
 * data and writes every control character as `\u00XX` (JSON.stringify does it for C0 only) and
 * every direction control as `\u202e`. No other file of src/cli writes to stdout or stderr (a test
 * in test/cli/cli-hostile-service.test.ts reads them).
 */
import {
  escapedDirectionControls,
  withoutControlSequences,
  withoutDirectionControls,
} from '../shared/index.ts';

/** DEL and the C1 controls, which JSON.stringify leaves as they are. */
const UNESCAPED_CONTROL = /[\x7f-\x9f]/g;

/** `value` as JSON (indented by `indent`) with no control character or direction control left raw. */
export function terminalJson(value: unknown, indent?: number): string {
  return escapedDirectionControls(
    JSON.stringify(value, null, indent).replace(
      UNESCAPED_CONTROL,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}

/** What a terminal is given: no control sequences, no direction controls (a name never reads as another). */
function terminalText(text: string): string {
  return withoutDirectionControls(withoutControlSequences(text));
}

/** Writes `text` to stdout without control sequences or direction controls. */
export function printOut(text: string): void {
  process.stdout.write(terminalText(text));
}

/** Writes `text` to stderr without control sequences or direction controls. */
export function printErr(text: string): void {
  process.stderr.write(terminalText(text));
}
