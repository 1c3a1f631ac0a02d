/**
 * The one parser of `media-task create <name>`: a create command is data (which option sets which
 * input field, how its text is read, whether it is required, which media option `--from` can
 * stand for), and `readCreateCommand` turns a command line into the draft. The generic command of
 * any catalog entry is made from the entry's fields (entryCommand: `--negative-prompt TEXT`,
 * `--batch-size N` within its bounds, `--image FILE|URL`, `--face-enhance`), and the hand-named
 * commands (`create audio --style …`, create-presets.ts) are the same data with their own option
 * names, defaults and checks.
 */
import type { ParseArgsOptionsConfig } from 'node:util';
import {
  type FieldRule,
  inputProblems,
  missingWords,
  priceWords,
  problemWords,
  type TaskTypeEntry,
} from '../shared/index.ts';
import { type ArgValues, FLAG, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import { CREATE_COMMON, entryDraft, type KindArgs, mediaOrFrom, mediaValue } from './create-options.ts';
import { readInputFile } from './input-file.ts';

/** How a number option is read: whole or not, its bounds, and what to say when it is off. */
export interface NumberReading {
  whole?: boolean;
  min?: number;
  max?: number;
  /** Put after a bound: ` seconds`. */
  unit?: string;
  /** What it must be, said instead of the words made from the above (`0 or more seconds`). */
  says?: string;
}

/** How an option's text becomes the field's value. */
export type Reading =
  | 'text'
  /** the named file's text (`--lyrics-file F`) */
  | 'text-file'
  /** a local file (made absolute), a URL or a data URI; an empty value is no value */
  | 'media'
  /** takes no value: sets `true` */
  | 'flag'
  | { number: NumberReading };

/** What was given on the command line, by option name. */
export type GivenValues = Readonly<Record<string, string | boolean | undefined>>;

export interface FieldOption {
  /** The option's name without its dashes: `style`, `lyrics-file`. */
  name: string;
  /** The input field it sets. */
  field: string;
  read: Reading;
  /** One line of help. */
  help: string;
  required?: boolean | ((given: GivenValues) => boolean);
  /** `--from TASK_ID[:OUTPUT]` can stand for this media option (a previous result). */
  fromResult?: boolean;
  /** What a flag sets (true unless said: `--no-face-enhance` sets false). */
  flagValue?: boolean;
}

export interface CreateCommand {
  /** What the help names it: `audio`, `flux1-schnell/txt2img`. */
  name: string;
  entry: TaskTypeEntry;
  options: readonly FieldOption[];
  /** Input values set before the options are read. */
  defaults?: Readonly<Record<string, unknown>>;
  /** Options the command reads itself in `finish` (face-swap's --target-dir). */
  extraOptions?: ParseArgsOptionsConfig;
  /** Extra lines of help, one per extra option or rule. */
  extraHelp?: readonly string[];
  /** Checks across options and what the command makes of them (a batch). */
  finish?: (args: KindArgs, given: GivenValues) => KindArgs;
  complete?: KindArgs['complete'];
}

const HELP = { help: FLAG } as const;

function optionConfig(command: CreateCommand): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = { ...CREATE_COMMON, ...HELP };
  if (command.options.some((o) => o.fromResult)) config.from = VALUE;
  for (const option of command.options) config[option.name] = option.read === 'flag' ? FLAG : VALUE;
  return { ...config, ...command.extraOptions };
}

function numberWords(n: NumberReading): string {
  if (n.says) return n.says;
  const unit = n.unit ?? '';
  const kind = n.whole ? 'a whole number' : 'a number';
  if (n.min !== undefined && n.max !== undefined) return `${kind} from ${n.min} to ${n.max}${unit}`;
  if (n.min !== undefined) return `${kind} of at least ${n.min}${unit}`;
  if (n.max !== undefined) return `${kind} of at most ${n.max}${unit}`;
  return kind;
}

/**
 * The option's number; its bounds are checked here only for a field the catalog has no rule of
 * (the catalog's rules are checked once the input is made: fieldRuleProblem).
 */
function readNumber(name: string, raw: string, n: NumberReading, ruled: boolean): number {
  const value = numberValue(name, raw) as number;
  if (ruled) return value;
  const off =
    (n.whole && !Number.isInteger(value)) ||
    (n.min !== undefined && value < n.min) ||
    (n.max !== undefined && value > n.max);
  if (off) throw new UsageError(`--${name} must be ${numberWords(n)}`);
  return value;
}

function readValue(option: FieldOption, raw: string | boolean, entry: TaskTypeEntry): unknown {
  const { read, name } = option;
  if (read === 'flag') return option.flagValue ?? true;
  const text = String(raw);
  if (read === 'text') return text;
  if (read === 'text-file') return text ? readInputFile(name, text) : undefined;
  if (read === 'media') return text ? mediaValue(text) : undefined;
  return readNumber(name, text, read.number, option.field in entry.input.fields);
}

/**
 * The first catalog rule an option's value breaks, in the one wording of the rule (the
 * composer's and the engine's), after the option's name: `--guidance-scale: Guidance must be
 * from 1.5 to 5`. Media values are checked when queued (a file, a URL, a previous result).
 */
function fieldRuleProblem(
  command: CreateCommand,
  input: Record<string, unknown>,
  given: ReadonlySet<string>,
): string | null {
  const { fields } = command.entry.input;
  for (const p of inputProblems(input, command.entry.input, '')) {
    const rule = fields[p.field];
    if (!rule || rule.media || !given.has(p.field)) continue;
    const option = command.options.find((o) => o.field === p.field);
    return `--${option?.name ?? optionNameOf(p.field)}: ${problemWords(p, rule)}`;
  }
  return null;
}

/**
 * The refusal of a required option left out or empty: the option, then its field's one sentence
 * (`--prompt: Prompt is needed`, `--audio: Add the song to extend`, what the composer and the
 * engine say), and for a media option how to give it, as a hint after the sentence.
 */
function missingOption(command: CreateCommand, option: FieldOption): string {
  const rule = command.entry.input.fields[option.field];
  if (!rule) return `--${option.name} is required`;
  const how =
    option.read !== 'media'
      ? ''
      : option.fromResult
        ? ' (FILE|URL or --from TASK_ID[:OUTPUT])'
        : ' (FILE|URL)';
  return `--${option.name}: ${missingWords(option.field, rule)}${how}`;
}

function isRequired(option: FieldOption, given: GivenValues): boolean {
  return typeof option.required === 'function' ? option.required(given) : (option.required ?? false);
}

/** The draft a command line makes under `command`, or its help when `--help` is given. */
export function readCreateCommand(
  command: CreateCommand,
  argv: readonly string[],
): KindArgs | { help: string } {
  const { values, positionals } = readArgs(argv, optionConfig(command));
  const given = values as GivenValues;
  if (given.help) return { help: commandHelp(command) };
  const input: Record<string, unknown> = { ...command.defaults };
  const from = typeof given.from === 'string' ? given.from : undefined;
  const set = new Set<string>();
  for (const option of command.options) {
    const raw = given[option.name];
    const need = isRequired(option, given);
    let value: unknown;
    const missing = need ? missingOption(command, option) : null;
    if (option.fromResult) {
      value = mediaOrFrom(
        option.name,
        typeof raw === 'string' && raw !== '' ? raw : undefined,
        from,
        missing,
      );
    } else if (raw === undefined) {
      if (missing !== null) throw new UsageError(missing);
      continue;
    } else {
      if (missing !== null && option.read !== 'flag' && String(raw).trim() === '')
        throw new UsageError(missing);
      value = readValue(option, raw, command.entry);
    }
    if (value === undefined) continue;
    if (
      option.read === 'flag' &&
      option.field in input &&
      input[option.field] !== command.defaults?.[option.field]
    )
      throw new UsageError(
        `give --${optionNameOf(option.field)} or --no-${optionNameOf(option.field)}, not both`,
      );
    input[option.field] = value;
    set.add(option.field);
  }
  const broken = fieldRuleProblem(command, input, set);
  if (broken) throw new UsageError(broken);
  const args: KindArgs = {
    draft: entryDraft(command.entry.id, input),
    common: values as ArgValues<typeof CREATE_COMMON>,
    positionals,
    ...(command.complete ? { complete: command.complete } : {}),
  };
  return command.finish ? command.finish(args, given) : args;
}

/** `negative_prompt` -> `negative-prompt`; a name the create itself takes gets `input-` before it. */
export function optionNameOf(field: string): string {
  const name = field.replace(/_/g, '-').toLowerCase();
  return name in CREATE_COMMON || name in HELP || name === 'from' ? `input-${name}` : name;
}

/** A field's words as the catalog gives them: its label (unless it is the field's name) and help. */
function fieldWords(field: string, rule: FieldRule): string {
  const label = rule.label !== field ? rule.label : '';
  return [label, rule.help].filter(Boolean).join(': ');
}

function readingOf(rule: FieldRule): Reading {
  if (rule.media) return 'media';
  if (rule.type === 'boolean') return 'flag';
  if (rule.type === 'number' || rule.type === 'integer') {
    const { unit } = rule;
    return {
      number: {
        whole: rule.type === 'integer',
        ...(rule.min !== undefined ? { min: rule.min } : {}),
        ...(rule.max !== undefined ? { max: rule.max } : {}),
        ...(unit ? { unit } : {}),
      },
    };
  }
  return 'text';
}

/**
 * The generic command of a catalog entry: an option per input field, named after it in kebab
 * case, read by its type (text; a number within its bounds; a media file, URL or `--from`
 * result; a flag, with `--no-NAME` for false), required as the field is, with the field's
 * words as help. `--from` stands for
 * the first required media field (else the first media field).
 */
export function entryCommand(entry: TaskTypeEntry, name = entry.id): CreateCommand {
  const fields = Object.entries(entry.input.fields);
  const media = fields.filter(([, rule]) => rule.media);
  const fromField = (media.find(([, rule]) => rule.required) ?? media[0])?.[0];
  return {
    name,
    entry,
    options: fields.flatMap(([field, rule]): FieldOption[] => {
      const option = {
        name: optionNameOf(field),
        field,
        read: readingOf(rule),
        help: fieldWords(field, rule),
        required: rule.required ?? false,
        fromResult: field === fromField,
      };
      // a boolean field is a flag and its opposite: unset, true or false
      if (rule.type !== 'boolean') return [option];
      return [option, { ...option, name: `no-${option.name}`, help: 'sends false', flagValue: false }];
    }),
  };
}

function placeholderOf(read: Reading): string {
  if (read === 'flag') return '';
  if (read === 'text') return ' TEXT';
  if (read === 'text-file') return ' FILE';
  if (read === 'media') return ' FILE|URL';
  return ' N';
}

function optionHelp(option: FieldOption): string {
  const read = option.read;
  const words = [option.help];
  if (typeof read === 'object') words.push(numberWords(read.number));
  if (read === 'media' && option.fromResult) words.push('or --from TASK_ID[:OUTPUT]');
  if (option.required === true) words.push('(required)');
  return words
    .filter(Boolean)
    .map((w) => w.replace(/\.$/, ''))
    .join('; ');
}

/** The help of a command: what it makes, its price, and each option with its words. */
export function commandHelp(command: CreateCommand): string {
  const { entry } = command;
  const also = entry.shortName && entry.shortName !== command.name ? entry.shortName : entry.id;
  const price = entry.price ? priceWords(entry.price) : 'no published price (asked first under a budget)';
  const lines = [
    `media-task create ${command.name} (also: create ${also})`,
    `${entry.label}: model ${entry.modelName}, task type ${entry.taskType}; ${price}`,
  ];
  const rows = command.options.map((o) => [`--${o.name}${placeholderOf(o.read)}`, optionHelp(o)] as const);
  if (command.options.some((o) => o.fromResult)) {
    rows.push([
      '--from TASK_ID[:OUTPUT]',
      'a previous result (output 0 unless said), recorded as the parent',
    ]);
  }
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}${right}`.trimEnd());
  for (const line of command.extraHelp ?? []) lines.push(`  ${line}`);
  lines.push(
    'Every create also takes --model ID, --title T, --webhook-url URL --webhook-secret S, --wait,',
    '--accept-unknown-price and --variants N.',
  );
  return `${lines.join('\n')}\n`;
}
