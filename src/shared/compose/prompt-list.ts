/**
 * Prompt lists (issue 22, item 3): one text that makes several tasks. Alternatives written
 * `{dawn|noon|dusk}` make one text per alternative, and several groups multiply (`{a|b} {c|d}`
 * makes four); a list of prompts, one per line, makes one text per line (blank lines left out).
 * The window's composer and the CLI's create both expand through here, so they say the same.
 *
 * The rules, chosen so that ordinary text is never changed by accident:
 * - a group needs a `|`: braces without one (`{name}`, a lone `{` or `}`) are left as written;
 * - `\{`, `\}` and `\|` are a brace or bar in the text itself (the backslash is dropped);
 * - an alternative may be empty (`a {red |}car`: "a red car", "a car"), but not every one of a group;
 * - braces inside a group are refused (alternatives are not nested), as is a group left open.
 */
import { BATCH_MAX_DRAFTS } from '../task/task-lineage.ts';

/** At most this many tasks from one prompt list (the most one batch holds). */
export const PROMPT_LIST_MAX = BATCH_MAX_DRAFTS;

export type TextExpansion = { ok: true; texts: string[] } | { ok: false; message: string };

/** A text's pieces: literal text, or a group's alternatives. */
type Piece = string | string[];

const ESCAPED = new Set(['{', '}', '|']);

/** The group opened at `start` (a `{`): its alternatives and where it ends, or why it cannot be read. */
function readGroup(
  text: string,
  start: number,
): { alternatives: string[]; end: number } | { open: true } | { message: string } {
  const alternatives = [''];
  let i = start + 1;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && ESCAPED.has(next)) {
      alternatives[alternatives.length - 1] += next;
      i += 2;
      continue;
    }
    if (c === '{') {
      return {
        message: `braces inside braces at character ${i + 1}: alternatives cannot be nested (write \\{ for a brace in the text)`,
      };
    }
    if (c === '}') return { alternatives, end: i + 1 };
    if (c === '|') alternatives.push('');
    else alternatives[alternatives.length - 1] += c;
    i++;
  }
  return alternatives.length > 1
    ? {
        message: `the { at character ${start + 1} is not closed: end its alternatives with } (or write \\{ for a brace in the text)`,
      }
    : { open: true };
}

function piecesOf(text: string): { ok: true; pieces: Piece[] } | { ok: false; message: string } {
  const pieces: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && ESCAPED.has(next)) {
      literal += next;
      i += 2;
      continue;
    }
    if (c !== '{') {
      literal += c;
      i++;
      continue;
    }
    const group = readGroup(text, i);
    if ('message' in group) return { ok: false, message: group.message };
    if ('open' in group || group.alternatives.length === 1) {
      // no `|`: not a group, the text as written
      const end = 'open' in group ? text.length : group.end;
      literal += 'open' in group ? text.slice(i) : `{${group.alternatives[0]}}`;
      i = end;
      continue;
    }
    if (group.alternatives.every((a) => a === '')) {
      return {
        ok: false,
        message: `the group at character ${i + 1} has only empty alternatives: write at least one word between its bars`,
      };
    }
    pieces.push(literal, group.alternatives);
    literal = '';
    i = group.end;
  }
  pieces.push(literal);
  return { ok: true, pieces };
}

/** How many texts `sizes` make, or max + 1 once it is over max (never overflows). */
function product(sizes: readonly number[], max: number): number {
  let n = 1;
  for (const size of sizes) {
    n *= size;
    if (n > max) return max + 1;
  }
  return n;
}

/** The words for a count over the limit. */
export function tooManyTasks(count: number | null, max = PROMPT_LIST_MAX): string {
  const made = count === null ? `more than ${max}` : count.toLocaleString('en-US');
  return `this makes ${made} tasks: at most ${max} at once (use fewer alternatives or lines)`;
}

/**
 * Every text `text` makes, one per combination of its groups' alternatives (the first group
 * changing slowest); the text itself when it has no group. Refused over `max` texts.
 */
export function expandAlternatives(text: string, max = PROMPT_LIST_MAX): TextExpansion {
  const read = piecesOf(text);
  if (!read.ok) return read;
  const groups = read.pieces.filter((p): p is string[] => Array.isArray(p));
  const count = product(
    groups.map((g) => g.length),
    max,
  );
  if (count > max) return { ok: false, message: tooManyTasks(null, max) };
  let texts = [''];
  for (const piece of read.pieces) {
    texts = Array.isArray(piece)
      ? texts.flatMap((t) => piece.map((alternative) => t + alternative))
      : texts.map((t) => t + piece);
  }
  return { ok: true, texts };
}

/** The prompts of a list, one per line: each line trimmed, blank ones left out. */
export function promptLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

export type TextsExpansion =
  | { ok: true; variants: Record<string, string>[] }
  | { ok: false; field: string; message: string };

/**
 * Every combination of several text fields' texts (alternatives in each; with `linesField`,
 * that field is a list of prompts, one per line, each line with its own alternatives), the
 * first field changing slowest. One combination (the texts as written, escapes read) when
 * nothing expands. Refused, naming the field, over `max` combinations or for a text that
 * cannot be read.
 */
export function expandTexts(
  texts: Readonly<Record<string, string>>,
  options: { linesField?: string; max?: number } = {},
): TextsExpansion {
  const max = options.max ?? PROMPT_LIST_MAX;
  let variants: Record<string, string>[] = [{}];
  for (const [field, text] of Object.entries(texts)) {
    const sources = field === options.linesField ? promptLines(text) : [text];
    if (sources.length === 0) {
      return { ok: false, field, message: 'the list of prompts is empty: write one prompt per line' };
    }
    const own: string[] = [];
    let count = 0;
    for (const source of sources) {
      const expanded = expandAlternatives(source, max);
      if (!expanded.ok) return { ok: false, field, message: expanded.message };
      // every line is counted, so the message can say how many there would be
      count += expanded.texts.length;
      if (count <= max) own.push(...expanded.texts);
    }
    if (count > max) return { ok: false, field, message: tooManyTasks(count, max) };
    if (variants.length * own.length > max) {
      return { ok: false, field, message: tooManyTasks(variants.length * own.length, max) };
    }
    variants = variants.flatMap((v) => own.map((t) => ({ ...v, [field]: t })));
  }
  return { ok: true, variants };
}
