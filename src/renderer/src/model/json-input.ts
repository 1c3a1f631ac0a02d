/** Validation of the JSON input of the "Other" composer tab, as the user types. Pure. */
import { type DraftPair, draftInputSizeProblem } from '../../../shared/index.ts';

export type JsonObjectCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; message: string; line: number | null; column: number | null };

/** 1-based line and column of a character offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

/** Where a JSON text first goes wrong, and why: a small scanner, since engines word parse errors differently. */
export function findJsonError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i] ?? '')) i++;
  };
  const err = (message: string): never => {
    throw { offset: i, message };
  };
  const whatIsHere = () =>
    i >= text.length ? 'the text ends too early' : `unexpected ${JSON.stringify(text[i])}`;
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else err(whatIsHere());
  };
  const string = () => {
    i++;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const next = text[i + 1] ?? '';
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) err('bad \\u escape in a string');
          i += 6;
        } else if ('"\\/bfnrt'.includes(next) && next !== '') i += 2;
        else err('bad escape in a string');
        continue;
      }
      if (ch !== undefined && ch.charCodeAt(0) < 0x20)
        err('a string cannot contain a line break or control character');
      i++;
    }
    err('a string is not closed (missing ")');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m || m[0] === '' || m[0] === '-') err(whatIsHere());
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') object();
    else if (ch === '[') array();
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else err(i >= text.length ? 'the text ends too early' : `expected a value, found ${JSON.stringify(ch)}`);
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"')
        err(
          text[i] === '}' ? 'a comma before "}" is not allowed' : 'expected a property name in double quotes',
        );
      string();
      ws();
      if (text[i] !== ':') err('expected ":" after the property name');
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      err(
        i >= text.length
          ? 'the object is not closed (missing "}")'
          : 'expected "," or "}" after a property value',
      );
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      value();
      ws();
      if (text[i] === ',') {
        i++;
        ws();
        if (text[i] === ']') err('a comma before "]" is not allowed');
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      err(
        i >= text.length
          ? 'the array is not closed (missing "]")'
          : 'expected "," or "]" after an array element',
      );
    }
  };
  try {
    value();
    ws();
    if (i < text.length) err(`unexpected text after the end: ${JSON.stringify(text[i])}`);
    return null;
  } catch (thrown) {
    if (thrown && typeof thrown === 'object' && 'offset' in thrown)
      return thrown as { offset: number; message: string };
    throw thrown;
  }
}

/**
 * Parses `text` as a JSON object; says where and why when it is not one, or when it is larger
 * than a draft's input may be (the task type's media fields not counted, as main counts it).
 */
export function checkJsonObject(
  text: string,
  pair: DraftPair = { model: '', taskType: '' },
): JsonObjectCheck {
  if (text.trim() === '')
    return {
      ok: false,
      message: 'Input is empty: write a JSON object such as {"prompt": "…"}',
      line: null,
      column: null,
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const found = findJsonError(text) ?? {
      offset: text.length,
      message: err instanceof Error ? err.message : 'not valid JSON',
    };
    const { line, column } = lineColumnAt(text, found.offset);
    return { ok: false, message: `Line ${line}, column ${column}: ${found.message}`, line, column };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, message: `Input must be a JSON object ({…}), not ${what}`, line: 1, column: 1 };
  }
  const tooLarge = draftInputSizeProblem(value as Record<string, unknown>, pair);
  if (tooLarge) return { ok: false, message: `Input ${tooLarge}`, line: null, column: null };
  return { ok: true, value: value as Record<string, unknown> };
}
