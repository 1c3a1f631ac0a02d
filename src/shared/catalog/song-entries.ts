/**
 * The catalog entries of the song model (ace-step): a song from text, which has its own tab, and
 * the remix, edit and extend of a song, which the From a result tab and a song's keep-going
 * actions offer.
 */
import { aceStepAudio, type EntryParts, nonEmpty, otherTaskType } from './entry-parts.ts';
import { LIMITS } from './limits.ts';
import {
  aceStepPrompts,
  audioDuration,
  audioSeconds,
  lyricsRule,
  requiredAudio,
  text,
  words,
} from './shared-fields.ts';

export const SONG_ENTRIES: readonly EntryParts[] = [
  {
    modelName: 'ace-step',
    historyFamily: 'llm',
    taskType: 'txt2audio',
    shortName: 'audio',
    family: 'song',
    makes: 'song',
    label: 'Song from text',
    description: 'A new song from a style prompt, lyrics or a reference audio.',
    outputKind: 'audio',
    expectedSeconds: 60,
    price: { unit: 'second', micros: 500, field: 'duration' },
    sandboxOnly: false,
    input: {
      strict: true,
      fields: {
        ...aceStepPrompts,
        duration: words({ type: 'number', required: true, ...audioSeconds }, 'Duration', {
          unit: ' seconds',
        }),
        style_audio: words({ type: 'string', media: 'audio' }, 'Reference audio', {
          help: 'A song whose style to follow.',
        }),
      },
      check: (input) =>
        nonEmpty(input.style_prompt) || nonEmpty(input.style_audio)
          ? null
          : {
              field: 'style_prompt',
              message:
                'input.style_prompt or input.style_audio is required (a text prompt or reference audio)',
              words: 'Write a style prompt or add a reference audio',
              reason: { kind: 'required' },
            },
    },
    sizeParameter: 'duration',
    example: { style_prompt: 'lofi piano, rain', lyrics: '[inst]', duration: 30 },
  },
  otherTaskType({
    ...aceStepAudio,
    taskType: 'audio2audio',
    shortName: 'remix',
    label: 'Audio to audio',
    description: 'The song as the style to follow, with a new prompt.',
    operation: {
      label: 'Remix',
      source: 'The song to remix',
      titleWord: 'remix',
    },
    fields: {
      style_audio: words(requiredAudio, 'The song', { missing: 'Add the song to remix' }),
      ...aceStepPrompts,
      style_prompt: words(text, 'New style prompt', { help: 'What to change: genre, instruments, mood.' }),
      duration: words(audioDuration, 'Length', { help: 'How long the remix is.' }),
    },
    sizeParameter: 'duration',
    example: { style_audio: '', style_prompt: '', duration: 30 },
  }),
  otherTaskType({
    ...aceStepAudio,
    taskType: 'edit',
    shortName: 'song-edit',
    label: 'Audio edit',
    description: 'New style or new lyrics for the same song.',
    operation: {
      label: 'Song edit',
      source: 'The song to edit',
      titleWord: 'edited',
      button: 'Edit',
    },
    fields: {
      audio: words(requiredAudio, 'The song', { missing: 'Add the song to edit' }),
      style_prompt: words(text, 'Style of the song now', { help: 'How the song sounds today.' }),
      lyrics: words(lyricsRule, 'Lyrics of the song now', { plural: true }),
      edit_style_prompt: words(text, 'New style', { help: 'How it should sound instead.' }),
      edit_lyrics: words(lyricsRule, 'New lyrics', { plural: true }),
      // how long the song is, the service reads from the song itself
      duration: words(audioDuration, 'Length', { widget: { kind: 'none' } }),
    },
    // an edit that changes nothing is refused (song-edit.ts): the example gives a new style
    example: {
      audio: '',
      style_prompt: '',
      lyrics: '',
      edit_style_prompt: 'slow jazz, brushes',
      edit_lyrics: '',
    },
  }),
  otherTaskType({
    ...aceStepAudio,
    taskType: 'extend',
    shortName: 'extend',
    label: 'Audio extend',
    description: 'Add music before or after a song.',
    operation: {
      label: 'Extend',
      source: 'The song to extend',
      titleWord: 'extended',
    },
    fields: {
      audio: words(requiredAudio, 'The song', { missing: 'Add the song to extend' }),
      ...aceStepPrompts,
      style_prompt: words(text, 'Style of the new part', {
        help: 'Genre, instruments and mood of the added music.',
      }),
      lyrics: words(lyricsRule, 'Lyrics for the new part', { plural: true }),
      // how long the song already is, the service reads from the song itself
      duration: words(audioDuration, 'Length', { widget: { kind: 'none' } }),
      left_extend_duration: words({ type: 'number', min: 0, max: LIMITS.audioMaxSeconds }, 'Seconds before', {
        unit: ' seconds',
      }),
      right_extend_duration: words({ type: 'number', min: 0, max: LIMITS.audioMaxSeconds }, 'Seconds after', {
        unit: ' seconds',
      }),
    },
    example: { audio: '', style_prompt: '', left_extend_duration: 0, right_extend_duration: 10 },
  }),
];
