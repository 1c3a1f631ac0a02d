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
  where: string,
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
        message: `braces inside braces at character ${i + 1}${where}: alternatives cannot be nested (write \\{ for a brace in the text)`,
      };
    }
    if (c === '}') return { alternatives, end: i + 1 };
    if (c === '|') alternatives.push('');
    else alternatives[alternatives.length - 1] += c;
    i++;
  }
  return alternatives.length > 1
    ? {
        message: `the { at character ${start + 1}${where} is not closed: end its alternatives with } (or write \\{ for a brace in the text)`,
      }
    : { open: true };
}

function piecesOf(
  text: string,
  where: string,
): { ok: true; pieces: Piece[] } | { ok: false; message: string } {
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
    const group = readGroup(text, i, where);
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
        message: `the group at character ${i + 1}${where} has only empty alternatives: write at least one word between its bars`,
      };
    }
    pieces.push(literal, group.alternatives);
    literal = '';
    i = group.end;
  }
  pieces.push(literal);
  return { ok: true, pieces };
}

/** How many texts `sizes` make (a count too large for a number is Infinity). */
function product(sizes: readonly number[]): number {
  return sizes.reduce((n, size) => n * size, 1);
}

/** The words for a count over the limit: the count as a number (review of issue 22, item 8). */
export function tooManyTasks(count: number, max = PROMPT_LIST_MAX): string {
  const made = Number.isSafeInteger(count)
    ? count.toLocaleString('en-US')
    : `more than ${max.toLocaleString('en-US')}`;
  return `this makes ${made} tasks; at most ${max} can be queued at once (use fewer alternatives or lines)`;
}

/** A text read: its pieces and how many texts it makes, or why it cannot be read. */
function readText(
  text: string,
  where: string,
): { ok: true; pieces: Piece[]; count: number } | { ok: false; message: string } {
  const read = piecesOf(text, where);
  if (!read.ok) return read;
  const sizes = read.pieces.filter((p): p is string[] => Array.isArray(p)).map((g) => g.length);
  return { ...read, count: product(sizes) };
}

/** The texts pieces make, the first group changing slowest. */
function textsOf(pieces: readonly Piece[]): string[] {
  let texts = [''];
  for (const piece of pieces) {
    texts = Array.isArray(piece)
      ? texts.flatMap((t) => piece.map((alternative) => t + alternative))
      : texts.map((t) => t + piece);
  }
  return texts;
}

/**
 * Every text `text` makes, one per combination of its groups' alternatives (the first group
 * changing slowest); the text itself when it has no group. Refused over `max` texts. `where`
 * names the text in a refusal (" of the prompt").
 */
export function expandAlternatives(text: string, max = PROMPT_LIST_MAX, where = ''): TextExpansion {
  const read = readText(text, where);
  if (!read.ok) return read;
  if (read.count > max) return { ok: false, message: tooManyTasks(read.count, max) };
  return { ok: true, texts: textsOf(read.pieces) };
}

/** The prompts of a list, one per line: each line trimmed, blank ones left out. */
export function promptLines(text: string): string[] {
  return numberedLines(text).map((l) => l.text);
}

/** The lines of a list with their numbers in the text (from 1), trimmed, blank ones left out. */
function numberedLines(text: string): { text: string; number: number }[] {
  return text
    .split(/\r?\n/)
    .map((line, i) => ({ text: line.trim(), number: i + 1 }))
    .filter((line) => line.text !== '');
}

export type TextsExpansion =
  | { ok: true; variants: Record<string, string>[] }
  | { ok: false; field: string; message: string };

/**
 * Every combination of several text fields' texts (alternatives in each; with `linesField`,
 * that field is a list of prompts, one per line, each line with its own alternatives), the
 * first field changing slowest. One combination (the texts as written, escapes read) when
 * nothing expands. Refused, naming the field, over `max` combinations (saying how many they
 * would be) or for a text that cannot be read (saying where: `names` gives each field's name in
 * words, "the negative prompt", and a list's line is named by its number).
 */
export function expandTexts(
  texts: Readonly<Record<string, string>>,
  options: { linesField?: string; max?: number; names?: Readonly<Record<string, string>> } = {},
): TextsExpansion {
  const max = options.max ?? PROMPT_LIST_MAX;
  // every field is read and counted before any text is made, so a refusal says the whole count
  const fields: { field: string; pieces: Piece[][]; count: number }[] = [];
  for (const [field, text] of Object.entries(texts)) {
    const name = options.names?.[field] ? ` of ${options.names[field]}` : '';
    const listed = field === options.linesField;
    const sources = listed ? numberedLines(text) : [{ text, number: 0 }];
    if (sources.length === 0) {
      return { ok: false, field, message: 'the list of prompts is empty: write one prompt per line' };
    }
    const pieces: Piece[][] = [];
    let count = 0;
    for (const source of sources) {
      const read = readText(source.text, listed ? ` of line ${source.number}${name}` : name);
      if (!read.ok) return { ok: false, field, message: read.message };
      pieces.push(read.pieces);
      count += read.count;
    }
    fields.push({ field, pieces, count });
  }
  let total = 1;
  for (const { field, count } of fields) {
    total *= count;
    if (total > max) {
      const all = product(fields.map((f) => f.count));
      return { ok: false, field, message: tooManyTasks(all, max) };
    }
  }
  let variants: Record<string, string>[] = [{}];
  for (const { field, pieces } of fields) {
    const own = pieces.flatMap(textsOf);
    variants = variants.flatMap((v) => own.map((t) => ({ ...v, [field]: t })));
  }
  return { ok: true, variants };
}
