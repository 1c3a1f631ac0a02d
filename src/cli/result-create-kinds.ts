/**
 * The creates that keep going from a result: `extend`, `song-edit` and `remix` a song, and
 * `upscale`, `background-remove` and `segment` a picture. Each takes its source as a file or URL
 * (`--audio`, `--image`) or as a previous result (`--from TASK_ID[:OUTPUT]`); with --from the new
 * task's parent is that task, and a song's own words (its style and lyrics) are read from it
 * where the operation needs them.
 */
import type { TaskDraft, TaskEngine } from '../main/engine/index.ts';
import { FLAG, numberValue, readArgs, UsageError, VALUE } from './cli-args.ts';
import {
  CREATE_COMMON,
  entryDraft,
  fromTaskOf,
  type KindArgs,
  mediaOrFrom,
  required,
} from './create-options.ts';
import { readInputFile } from './input-file.ts';

/** A text input the parent task was made with (its style prompt, its lyrics), or undefined. */
function parentText(engine: TaskEngine, draft: TaskDraft, field: string): string | undefined {
  const value = fromTaskOf(engine, draft)?.request.input[field];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function seconds(name: string, raw: string | undefined): number | undefined {
  const n = numberValue(name, raw);
  if (n !== undefined && n < 0) throw new UsageError(`--${name} must be 0 or more seconds`);
  return n;
}

export function extendArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    audio: VALUE,
    right: VALUE,
    left: VALUE,
    style: VALUE,
    negative: VALUE,
    'lyrics-file': VALUE,
  });
  const right = seconds('right', values.right);
  const left = seconds('left', values.left);
  if (!right && !left)
    throw new UsageError('--right S (seconds after the song) or --left S (before it) is required');
  const input: Record<string, unknown> = {
    audio: mediaOrFrom('audio', values.audio, values.from, true),
    left_extend_duration: left ?? 0,
    right_extend_duration: right ?? 0,
  };
  if (values.style !== undefined) input.style_prompt = values.style;
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  if (values['lyrics-file']) input.lyrics = readInputFile('lyrics-file', values['lyrics-file']);
  return {
    draft: entryDraft('ace-step/extend', input),
    common: values,
    positionals,
    // the new part goes on in the song's own style unless told otherwise
    complete: (engine, draft) => {
      if (draft.input.style_prompt !== undefined) return;
      const style = parentText(engine, draft, 'style_prompt');
      if (style !== undefined) draft.input.style_prompt = style;
    },
  };
}

export function songEditArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    audio: VALUE,
    style: VALUE,
    'lyrics-file': VALUE,
    'edit-style': VALUE,
    'edit-lyrics-file': VALUE,
  });
  const input: Record<string, unknown> = { audio: mediaOrFrom('audio', values.audio, values.from, true) };
  if (values.style !== undefined) input.style_prompt = values.style;
  if (values['lyrics-file']) input.lyrics = readInputFile('lyrics-file', values['lyrics-file']);
  if (values['edit-style'] !== undefined) input.edit_style_prompt = values['edit-style'];
  if (values['edit-lyrics-file'])
    input.edit_lyrics = readInputFile('edit-lyrics-file', values['edit-lyrics-file']);
  if (input.edit_style_prompt === undefined && input.edit_lyrics === undefined) {
    throw new UsageError(
      '--edit-style TEXT (the new style) or --edit-lyrics-file F (the new words) is required',
    );
  }
  return {
    draft: entryDraft('ace-step/edit', input),
    common: values,
    positionals,
    // the song now: its style and words as it was made, unless given
    complete: (engine, draft) => {
      for (const field of ['style_prompt', 'lyrics']) {
        if (draft.input[field] !== undefined) continue;
        const text = parentText(engine, draft, field);
        if (text !== undefined) draft.input[field] = text;
      }
    },
  };
}

export function remixArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    audio: VALUE,
    style: VALUE,
    negative: VALUE,
    'lyrics-file': VALUE,
    duration: VALUE,
  });
  const input: Record<string, unknown> = {
    style_audio: mediaOrFrom('audio', values.audio, values.from, true),
    style_prompt: required('style', values.style),
  };
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  if (values['lyrics-file']) input.lyrics = readInputFile('lyrics-file', values['lyrics-file']);
  const duration = seconds('duration', values.duration);
  if (duration !== undefined) input.duration = duration;
  return { draft: entryDraft('ace-step/audio2audio', input), common: values, positionals };
}

export function upscaleArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    image: VALUE,
    scale: VALUE,
    'face-enhance': FLAG,
  });
  const input: Record<string, unknown> = { image: mediaOrFrom('image', values.image, values.from, true) };
  const scale = numberValue('scale', values.scale);
  if (scale !== undefined) {
    if (!Number.isInteger(scale)) throw new UsageError('--scale must be a whole number');
    input.scale = scale;
  }
  if (values['face-enhance']) input.face_enhance = true;
  return { draft: entryDraft('image-toolkit/upscale', input), common: values, positionals };
}

export function backgroundRemoveArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    image: VALUE,
    'rmbg-model': VALUE,
  });
  const input: Record<string, unknown> = { image: mediaOrFrom('image', values.image, values.from, true) };
  if (values['rmbg-model'] !== undefined) input.rmbg_model = values['rmbg-model'];
  return { draft: entryDraft('image-toolkit/background-remove', input), common: values, positionals };
}

export function segmentArgs(argv: readonly string[]): KindArgs {
  const { values, positionals } = readArgs(argv, {
    ...CREATE_COMMON,
    from: VALUE,
    image: VALUE,
    prompt: VALUE,
    negative: VALUE,
    factor: VALUE,
  });
  const input: Record<string, unknown> = {
    image: mediaOrFrom('image', values.image, values.from, true),
    prompt: required('prompt', values.prompt),
  };
  if (values.negative !== undefined) input.negative_prompt = values.negative;
  const factor = numberValue('factor', values.factor);
  if (factor !== undefined) {
    if (!Number.isInteger(factor)) throw new UsageError('--factor must be a whole number of pixels');
    input.segment_factor = factor;
  }
  return { draft: entryDraft('image-toolkit/segment', input), common: values, positionals };
}
