/**
 * `media-task create image|video|3d`: a create by what it makes, its model chosen with `--model
 * NAME` among the catalog entries of that kind, from text or, given `--image FILE|URL` or `--from
 * TASK_ID[:OUTPUT]`, from a picture (`create video --model wanx-14b --from 12` makes Wanx's image
 * to video of task 12's picture, recorded as its parent). Each choice is the generic command of
 * its entry (create-parser.ts entryCommand), so its options are the entry's fields.
 */
import { entryById, priceWords, type TaskTypeEntry } from '../shared/index.ts';
import { UsageError } from './cli-args.ts';
import { type CreateCommand, entryCommand } from './create-parser.ts';

/** One choice of `--model`: its entry from text and its entry from a picture (ids), where it has one. */
interface ModelChoice {
  name: string;
  text?: string;
  picture?: string;
}

interface KindCommand {
  /** What it makes, for messages: `a picture`, `a video`, `a 3D model`. */
  makes: string;
  /** In order; the first with the variant asked for is the default. */
  models: readonly ModelChoice[];
}

export const KIND_COMMANDS: Readonly<Record<string, KindCommand>> = {
  image: {
    makes: 'a picture',
    models: [
      { name: 'flux-schnell', text: 'flux1-schnell/txt2img', picture: 'flux1-schnell/img2img' },
      { name: 'flux-dev', text: 'flux1-dev/txt2img', picture: 'flux1-dev/img2img' },
      { name: 'qwen-image', text: 'qwen-image/txt2img' },
      { name: 'z-image', text: 'z-image/txt2img' },
    ],
  },
  video: {
    makes: 'a video',
    models: [
      { name: 'hunyuan-fast', text: 'hunyuan/fast-txt2video' },
      { name: 'hunyuan', text: 'hunyuan/txt2video', picture: 'hunyuan/img2video-concat' },
      { name: 'hunyuan-replace', picture: 'hunyuan/img2video-replace' },
      { name: 'wanx-1.3b', text: 'wanx/txt2video-1.3b' },
      { name: 'wanx-14b', text: 'wanx/txt2video-14b', picture: 'wanx/img2video-14b' },
    ],
  },
  '3d': {
    makes: 'a 3D model',
    models: [
      { name: 'trellis', text: 'trellis/text-to-3d', picture: 'trellis/image-to-3d' },
      { name: 'trellis2', picture: 'trellis2/image-to-3d' },
    ],
  },
};

function entryOf(id: string): TaskTypeEntry {
  const entry = entryById(id);
  if (!entry) throw new Error(`the catalog has no entry ${id}`);
  return entry;
}

/** `--name VALUE` or `--name=VALUE` in argv: its value and argv without it; the last one counts. */
function takeOption(argv: readonly string[], name: string): { value: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === `--${name}`) {
      value = argv[i + 1] ?? '';
      i++;
    } else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
    else rest.push(arg);
  }
  return { value, rest };
}

function gives(argv: readonly string[], name: string): boolean {
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`));
}

function choiceWords(m: ModelChoice): string {
  const ways = [
    m.text ? `from text, ${priceOf(m.text)}` : '',
    m.picture ? `from a picture, ${priceOf(m.picture)}` : '',
  ].filter(Boolean);
  return `${m.name} (${ways.join('; ')})`;
}

function priceOf(id: string): string {
  const { price } = entryOf(id);
  return price ? priceWords(price) : 'price asked first';
}

function names(models: readonly ModelChoice[]): string {
  const list = models.map((m) => m.name);
  return list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : (list[0] ?? '');
}

/** The model `--model` names: a choice's name, or an entry's id or short name among the choices. */
function modelNamed(kind: KindCommand, kindName: string, raw: string): ModelChoice {
  const word = raw.trim();
  const found = kind.models.find(
    (m) =>
      m.name === word ||
      [m.text, m.picture].some(
        (id) => id !== undefined && (id === word || entryById(id)?.shortName === word),
      ),
  );
  if (!found)
    throw new UsageError(
      `--model: "${raw}" is not a model of create ${kindName}; choose ${names(kind.models)} (to send another model id, use create <entry id> --model ID)`,
    );
  return found;
}

/**
 * The command `create <kind>` stands for, given its arguments, and the arguments left for the
 * parser (without `--model`); undefined when `kind` is not one of KIND_COMMANDS.
 */
export function kindCommand(
  kindName: string,
  argv: readonly string[],
): { command: CreateCommand; argv: string[] } | undefined {
  if (!Object.hasOwn(KIND_COMMANDS, kindName)) return undefined;
  const kind = KIND_COMMANDS[kindName] as KindCommand;
  const { value, rest } = takeOption(argv, 'model');
  const fromPicture = gives(rest, 'image') || gives(rest, 'from');
  const variant = fromPicture ? 'picture' : 'text';
  let model: ModelChoice;
  if (value !== undefined) {
    model = modelNamed(kind, kindName, value);
    if (!model[variant]) {
      const other = kind.models.filter((m) => m[variant]);
      throw new UsageError(
        fromPicture
          ? `--model ${model.name} makes ${kind.makes} from text only: leave out --image and --from, or choose ${names(other)}`
          : `--model ${model.name} makes ${kind.makes} from a picture: give --image FILE|URL or --from TASK_ID, or choose ${names(other)}`,
      );
    }
  } else model = kind.models.find((m) => m[variant]) as ModelChoice;
  const command = entryCommand(entryOf(model[variant] as string), kindName);
  return {
    command: {
      ...command,
      extraHelp: [
        `--model NAME  one of: ${kind.models.map(choiceWords).join(', ')}`,
        `(without --model: ${kind.models.find((m) => m.text)?.name ?? ''} from text, ${kind.models.find((m) => m.picture)?.name ?? ''} from a picture;`,
        ' the options above are those of the model chosen: create NAME --model M --help lists its own)',
      ],
    },
    argv: rest,
  };
}
