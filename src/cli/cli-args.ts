/**
 * The CLI's argument reader, over `node:util` `parseArgs`: `--name value`, `--name=value`,
 * boolean flags, positionals, and `--` ending the options. Unknown options are errors, so a typo
 * never silently changes what is sent.
 *
 * parseArgs runs non-strict with its tokens, and the checks here read the tokens, so the errors
 * are the CLI's own (`unknown option --x`, `--x needs a value`, `--x takes no value`), reported
 * for the first wrong word in order. The CLI has no short options: a word starting with one dash
 * (`-h`, `-5`) stays a positional, as typed.
 */
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An option that takes a value (`--name value` or `--name=value`). */
export const VALUE = { type: 'string' } as const;
/** An option that takes no value (`--name`). */
export const FLAG = { type: 'boolean' } as const;

/** What was given for each option: its text for a value option, `true` for a flag; absent if not given. */
export type ArgValues<O extends ParseArgsOptionsConfig> = {
  [K in keyof O]?: O[K]['type'] extends 'string' ? string : boolean;
};

export interface ParsedArgs<O extends ParseArgsOptionsConfig> {
  values: ArgValues<O>;
  positionals: string[];
}

type ArgToken = NonNullable<ReturnType<typeof parseArgs>['tokens']>[number];

/** parseArgs' tokens for `argv` read against `options`, without its own errors. */
function tokensOf(argv: readonly string[], options: ParseArgsOptionsConfig): ArgToken[] {
  return parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** A `--name` word; parseArgs also makes option tokens of single-dash words, one per letter. */
function isLongOption(rawName: string): boolean {
  return rawName.startsWith('--');
}

/** Reads `argv` against `options`; throws `UsageError` at the first word that does not fit. */
export function readArgs<const O extends ParseArgsOptionsConfig>(
  argv: readonly string[],
  options: O,
): ParsedArgs<O> {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  let lastDashWord = -1;
  for (const token of tokensOf(argv, options)) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
    } else if (token.kind === 'option' && isLongOption(token.rawName)) {
      const type = Object.hasOwn(options, token.name) ? options[token.name]?.type : undefined;
      if (type === undefined) throw new UsageError(`unknown option --${token.name}`);
      if (type === 'boolean') {
        if (token.inlineValue) throw new UsageError(`--${token.name} takes no value`);
        values[token.name] = true;
      } else {
        if (token.value === undefined) throw new UsageError(`--${token.name} needs a value`);
        values[token.name] = token.value;
      }
    } else if (token.kind === 'option' && token.index !== lastDashWord) {
      // a single-dash word (`-abc` gives a token per letter, all with its index), kept once
      positionals.push(argv[token.index] as string);
      lastDashWord = token.index;
    }
  }
  return { values: values as ArgValues<O>, positionals };
}

/**
 * Splits the options named in `options`, wherever they are on the line (each with its value),
 * from the other words, which keep their order. Words after `--` are never picked out.
 */
export function pickOptions(
  argv: readonly string[],
  options: ParseArgsOptionsConfig,
): { picked: string[]; others: string[] } {
  const pickedIndexes = new Set<number>();
  for (const token of tokensOf(argv, options)) {
    if (token.kind !== 'option' || !isLongOption(token.rawName) || !Object.hasOwn(options, token.name))
      continue;
    pickedIndexes.add(token.index);
    if (token.value !== undefined && !token.inlineValue) pickedIndexes.add(token.index + 1);
  }
  const picked: string[] = [];
  const others: string[] = [];
  argv.forEach((arg, i) => {
    (pickedIndexes.has(i) ? picked : others).push(arg);
  });
  return { picked, others };
}

/** A number given as an option's value; undefined when the option was not given. */
export function numberValue(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number (got "${raw}")`);
  return n;
}

/** Throws when words other than options were given to a command that takes none. */
export function noPositionals(positionals: readonly string[]): void {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}
