/**
 * What a file given to recall or import is (issue 22 review, item 9): a result file the app made
 * (its bytes are a picture, sound, video or 3D model), a task.json (JSON text), or neither. Judged
 * by its bytes first, then by its name: a `.png` whose bytes are text is said to be no PNG, and a
 * text file to be a text file, never handed to the JSON parser to fail in the parser's words.
 * The window's drop, Queue again from an export… and the CLI's `recall` and `import-file` all
 * read through here (task-file-import.ts).
 */
import { basename, extname } from 'node:path';
import { formatOfExtension, hasControlCharacters, mediaKind, sniffFileType } from '../../../shared/index.ts';
import { InputValidationError, readAt } from '../../inputs/index.ts';
import { openRegularFile } from '../../library/index.ts';

/** Enough of a file to tell its kind (the recognisers need far less) and whether it is text. */
const HEAD_BYTES = 4096;

export type GivenFileKind = 'result' | 'task-json';

/** What the app takes, said after what a file is not. */
const TAKES = 'a picture, sound, video or 3D model the app made, nor a task.json it exported';

/** Whether bytes read as text: UTF-8 (a sequence cut at the end allowed) without control characters. */
function isText(head: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return false;
  }
  // a carriage return (Windows line ends) and a form feed are text too
  return !hasControlCharacters(text.replace(/[\r\f]/g, ''));
}

/** Whether text starts as a JSON object does (a byte order mark and white space allowed). */
function looksLikeJson(head: Uint8Array): boolean {
  const text = new TextDecoder('utf-8').decode(head.subarray(0, 256));
  return /^\uFEFF?\s*\{/.test(text);
}

/**
 * The kind of the file at `file`: `result` (recall reads it), `task-json` (a task.json is read:
 * JSON text, or a `.json` name), else refused in a sentence saying what it is and what the app
 * takes. A file that cannot be opened is `task-json`: reading it says why in the same words.
 */
export async function givenFileKind(file: string): Promise<GivenFileKind> {
  let head: Uint8Array;
  try {
    const handle = await openRegularFile(file);
    try {
      head = await readAt(handle, 0, HEAD_BYTES);
    } finally {
      await handle.close();
    }
  } catch {
    return 'task-json';
  }
  if (sniffFileType(head) !== null) return 'result';
  const name = basename(file);
  const ext = extname(name).slice(1);
  const named = ext ? formatOfExtension(ext) : null;
  if (named) {
    // named as a picture, sound… that its bytes are not
    const content =
      head.length === 0
        ? 'the file is empty'
        : isText(head)
          ? `its content is text, not a ${mediaKind(named.kind).label}`
          : `its content is not a ${mediaKind(named.kind).label} the app can read`;
    throw new InputValidationError('file', `${name} is not ${named.description}: ${content}`);
  }
  if (ext.toLowerCase() === 'json' || (isText(head) && looksLikeJson(head))) return 'task-json';
  if (head.length === 0) throw new InputValidationError('file', `${name} is empty: it is not ${TAKES}`);
  throw new InputValidationError(
    'file',
    isText(head) ? `${name} is a text file, not ${TAKES}` : `${name} is not ${TAKES}`,
  );
}
