/**
 * The words of the OS notification for a task that just ended. Pure.
 *
 * A task's title (the user's, or one made from a prompt) and the service's error text are not
 * the app's words, so they are cleaned before a notification shows them (security review,
 * issue 17 item 9): control and invisible formatting characters (line breaks, escape
 * sequences, bidirectional overrides) become spaces, the body is cut to BODY_MAX_CHARS at a
 * character boundary, and on Linux, where notification servers read the body as markup
 * (`<b>`, `<a href>`, `<img src>`, `&…;`), `&`, `<` and `>` are escaped. Windows and macOS show
 * the text as it is (Electron writes Windows' toast XML itself).
 */
import type { Task } from '../../shared/index.ts';
import { withoutDirectionControls } from '../../shared/text/control-characters.ts';

const FAMILY_WORDS: Record<Task['family'], string> = {
  song: 'Song',
  'face-swap': 'Face swap',
  'image-edit': 'Image edit',
  other: 'Task',
};

const STATE_WORDS: Partial<Record<Task['state'], string>> = {
  saved: 'is ready',
  failed: 'failed',
  expired: 'expired before it could be saved',
  uncertain: 'needs your decision',
};

/** Longest body, in characters (before Linux's escaping). */
export const BODY_MAX_CHARS = 240;

/**
 * Controls (C0, DEL, C1), format characters (zero-width spaces, direction marks, bidirectional
 * embeddings, overrides and isolates, the byte order mark, ...) and line and paragraph
 * separators.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/** Joiners that shape text (emoji sequences, Persian and Indic scripts): kept. */
const JOINERS = new Set(['\u200c', '\u200d']);

/**
 * One line of plain text: direction controls go (as the command line drops them: "photognp.exe"),
 * other invisible characters become spaces, runs of spaces one.
 */
function plainLine(text: string): string {
  return withoutDirectionControls(text)
    .replace(INVISIBLE, (c) => (JOINERS.has(c) ? c : ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

/** At most `max` characters (code points, so no pair of UTF-16 units is split), "…" last when cut. */
function bounded(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The markup a freedesktop notification server reads in a body, escaped. */
function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `platform`: `process.platform` of the app (only `linux` escapes markup). */
export function finishNoticeOf(task: Task, platform: string): { title: string; body: string } {
  const title = `${FAMILY_WORDS[task.family] ?? 'Task'} ${STATE_WORDS[task.state] ?? task.state}`;
  const error = task.state === 'saved' ? '' : plainLine(task.error?.message ?? '');
  const name = plainLine(task.title);
  const body = bounded(error ? (name ? `${name}: ${error}` : error) : name, BODY_MAX_CHARS);
  // the summary (title) is plain text for notification servers too; only the body is markup
  return { title: plainLine(title), body: platform === 'linux' ? escapeMarkup(body) : body };
}
