/**
 * The hand-named creates, as presets over the one parser (create-parser.ts): each names a catalog
 * entry and its own option words (`create audio --style …`, `create extend --right S`). `extend`,
 * `song-edit` and `remix` keep going from a song, `upscale`, `background-remove` and `segment`
 * from a picture: each takes its source as a file or URL (`--audio`, `--image`) or as a previous
 * result (`--from TASK_ID[:OUTPUT]`); `video-face-swap` puts a face (`--face`) onto a video
 * (`--video` or `--from`). With --from the new task's parent is that task, and a song's
 * own words (its style and lyrics) are read from it where the operation needs them. Every other
 * entry has the generic command made from its fields.
 */
import { readdirSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import type { TaskDraft, TaskEngine } from '../core/engine/index.ts';
import { BATCH_MAX_DRAFTS, entryById, songEditChangesNothing } from '../shared/index.ts';
import { countWord } from '../shared/task/task-count-words.ts';
import { UsageError, VALUE } from './cli-args.ts';
import { fromTaskOf } from './create-options.ts';
import type { CreateCommand, FieldOption } from './create-parser.ts';

function entry(id: string) {
  const found = entryById(id);
  if (!found) throw new Error(`the catalog has no entry ${id}`);
  return found;
}

const text = (name: string, field: string, help: string, required = false): FieldOption => ({
  name,
  field,
  read: 'text',
  help,
  required,
});
const textFile = (name: string, field: string, help: string): FieldOption => ({
  name,
  field,
  read: 'text-file',
  help,
});
const seconds = (name: string, field: string, help: string): FieldOption => ({
  name,
  field,
  read: { number: { min: 0, says: '0 or more seconds' } },
  help,
});
const whole = (name: string, field: string, help: string, says?: string): FieldOption => ({
  name,
  field,
  read: { number: { whole: true, ...(says ? { says } : {}) } },
  help,
});
/** A media option `--from` can stand for. */
const source = (name: string, field: string, help: string, required = true): FieldOption => ({
  name,
  field,
  read: 'media',
  help,
  required,
  fromResult: true,
});

const STYLE = text('style', 'style_prompt', 'the style prompt: genre, instruments, mood');
const NEGATIVE = text('negative', 'negative_prompt', 'what to keep out');
const LYRICS = textFile('lyrics-file', 'lyrics', 'the lyrics, from a text file');

/** A text input the parent task was made with (its style prompt, its lyrics), or undefined. */
function parentText(engine: TaskEngine, draft: TaskDraft, field: string): string | undefined {
  const value = fromTaskOf(engine, draft)?.request.input[field];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Pictures a face swap can target, by extension (the checks read their bytes when queued). */
const PICTURE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.webp']);

/** The pictures in a folder (not its sub-folders), by name; refuses an empty or overfull one. */
function picturesIn(dir: string): string[] {
  const folder = resolve(dir);
  let names: string[];
  try {
    names = readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isFile() && PICTURE_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : String(code ?? err);
    throw new UsageError(`--target-dir: cannot read ${dir}: ${why}`);
  }
  if (names.length === 0)
    throw new UsageError(`--target-dir: ${dir} has no .jpg, .jpeg, .png or .webp pictures`);
  if (names.length > BATCH_MAX_DRAFTS) {
    throw new UsageError(
      `--target-dir: ${dir} has ${countWord(names.length, 'picture')}; a batch takes at most ${BATCH_MAX_DRAFTS}`,
    );
  }
  return names.map((name) => join(folder, name));
}

const audio: CreateCommand = {
  name: 'audio',
  entry: entry('ace-step/txt2audio'),
  defaults: { style_prompt: '', duration: 30 },
  options: [
    STYLE,
    NEGATIVE,
    LYRICS,
    { name: 'duration', field: 'duration', read: { number: {} }, help: 'seconds (30 when not given)' },
    source('reference', 'style_audio', 'a reference song whose style to follow', false),
  ],
};

const faceSwap: CreateCommand = {
  name: 'face-swap',
  entry: entry('image-toolkit/face-swap'),
  options: [
    {
      ...source('target', 'target_image', 'the picture whose face is replaced'),
      required: (given) => given['target-dir'] === undefined,
    },
    { name: 'swap', field: 'swap_image', read: 'media', help: 'the face to put in', required: true },
  ],
  extraOptions: { 'target-dir': VALUE },
  extraHelp: ['--target-dir DIR  one face onto every picture in DIR, as one batch (instead of --target)'],
  finish: (args, given) => {
    const dir = given['target-dir'];
    if (typeof dir !== 'string') return args;
    if (given.target !== undefined || given.from !== undefined) {
      throw new UsageError('--target-dir takes the place of --target and --from: give one of them');
    }
    if (given.variants !== undefined)
      throw new UsageError('--target-dir makes its own batch: leave out --variants');
    const batch = picturesIn(dir).map((file) => ({
      ...args.draft,
      input: { ...args.draft.input, target_image: file },
      title: `Face swap: ${basename(file)}`,
    }));
    return { ...args, draft: batch[0] as TaskDraft, batch };
  },
};

const imageEdit: CreateCommand = {
  name: 'image-edit',
  entry: entry('qwen-image/image-edit'),
  options: [
    source('image1', 'image1', 'the picture to edit'),
    { name: 'image2', field: 'image2', read: 'media', help: 'a second picture the prompt can name' },
    { name: 'image3', field: 'image3', read: 'media', help: 'a third one, after image2' },
    text('prompt', 'prompt', 'the edit; name the pictures image1, image2', true),
    NEGATIVE,
    whole('seed', 'seed', 'the same seed gives the same result'),
    whole('steps', 'steps', 'more steps: finer detail, slower'),
    { name: 'flow-shift', field: 'flow_shift', read: { number: {} }, help: 'how boldly to reshape' },
  ],
};

const extend: CreateCommand = {
  name: 'extend',
  entry: entry('ace-step/extend'),
  defaults: { left_extend_duration: 0, right_extend_duration: 0 },
  options: [
    source('audio', 'audio', 'the song to extend'),
    seconds('right', 'right_extend_duration', 'seconds of new music after the song'),
    seconds('left', 'left_extend_duration', 'seconds of new music before it'),
    STYLE,
    NEGATIVE,
    LYRICS,
  ],
  finish: (args) => {
    const { input } = args.draft;
    if (!input.right_extend_duration && !input.left_extend_duration)
      throw new UsageError('--right S (seconds after the song) or --left S (before it) is required');
    return args;
  },
  // the new part goes on in the song's own style unless told otherwise
  complete: (engine, draft) => {
    if (draft.input.style_prompt !== undefined) return;
    const style = parentText(engine, draft, 'style_prompt');
    if (style !== undefined) draft.input.style_prompt = style;
  },
};

/** Why a song edit changes nothing, in the command line's words. */
function sameEditWords(input: Record<string, unknown>): string {
  const given = (field: string) => typeof input[field] === 'string' && String(input[field]).trim() !== '';
  const style = given('edit_style_prompt') ? "--edit-style is the song's own style" : 'no new style';
  const words = given('edit_lyrics')
    ? "--edit-lyrics-file holds the song's own words"
    : 'no new words were given';
  return `song-edit changes nothing: ${style} and ${words}; a billed edit would make the same song (give a new style or new words)`;
}

const songEdit: CreateCommand = {
  name: 'song-edit',
  entry: entry('ace-step/edit'),
  options: [
    source('audio', 'audio', 'the song to edit'),
    STYLE,
    LYRICS,
    text('edit-style', 'edit_style_prompt', 'the new style'),
    textFile('edit-lyrics-file', 'edit_lyrics', 'the new words, from a text file'),
  ],
  finish: (args) => {
    const { input } = args.draft;
    if (input.edit_style_prompt === undefined && input.edit_lyrics === undefined) {
      throw new UsageError(
        '--edit-style TEXT (the new style) or --edit-lyrics-file F (the new words) is required',
      );
    }
    return args;
  },
  // the song now: its style and words as it was made, unless given; an edit to the same is refused
  complete: (engine, draft) => {
    for (const field of ['style_prompt', 'lyrics']) {
      if (draft.input[field] !== undefined) continue;
      const words = parentText(engine, draft, field);
      if (words !== undefined) draft.input[field] = words;
    }
    if (songEditChangesNothing(draft.input)) throw new UsageError(sameEditWords(draft.input));
  },
};

const remix: CreateCommand = {
  name: 'remix',
  entry: entry('ace-step/audio2audio'),
  options: [
    source('audio', 'style_audio', 'the song to remix'),
    { ...STYLE, required: true },
    NEGATIVE,
    LYRICS,
    seconds('duration', 'duration', 'how long the remix is'),
  ],
};

const image = (help: string) => source('image', 'image', help);

const upscale: CreateCommand = {
  name: 'upscale',
  entry: entry('image-toolkit/upscale'),
  options: [
    image('the picture to upscale'),
    whole('scale', 'scale', '2 doubles the width and the height'),
    { name: 'face-enhance', field: 'face_enhance', read: 'flag', help: 'improve faces' },
  ],
};

const backgroundRemove: CreateCommand = {
  name: 'background-remove',
  entry: entry('image-toolkit/background-remove'),
  options: [
    image('the picture'),
    text('rmbg-model', 'rmbg_model', "the removal model (the service's default)"),
  ],
};

const segment: CreateCommand = {
  name: 'segment',
  entry: entry('image-toolkit/segment'),
  options: [
    image('the picture to cut from'),
    text('prompt', 'prompt', 'what to cut out', true),
    NEGATIVE,
    whole('factor', 'segment_factor', 'pixels: negative shrinks the cut-out', 'a whole number of pixels'),
  ],
};

const videoFaceSwap: CreateCommand = {
  name: 'video-face-swap',
  entry: entry('video-toolkit/face-swap'),
  options: [
    source('video', 'target_video', 'the video whose face is replaced (an MP4)'),
    { name: 'face', field: 'swap_image', read: 'media', help: 'the face to put in', required: true },
    text('swap-faces', 'swap_faces_index', 'which faces of the face picture, from 0 left to right: 0 or 0,1'),
    text('target-faces', 'target_faces_index', 'which faces of the video, in the same order'),
  ],
};

/** The hand-named creates, by the word after `create`. */
export const PRESETS: Readonly<Record<string, CreateCommand>> = Object.fromEntries(
  [
    audio,
    faceSwap,
    imageEdit,
    extend,
    songEdit,
    remix,
    upscale,
    backgroundRemove,
    segment,
    videoFaceSwap,
  ].map((c) => [c.name, c]),
);
