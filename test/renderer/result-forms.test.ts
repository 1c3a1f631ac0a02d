/**
 * The composer's forms for keeping going from a result: the From a result tab's operations read
 * from the catalog, a library result as `{ $output }` in a slot, the lineage a draft carries, the
 * plain-words check of each operation, the Face swap tab's several faces, and what each action of
 * the library opens with.
 */
import { describe, expect, it } from 'vitest';
import {
  buildDraft,
  composeInput,
  emptyForms,
} from '../../src/renderer/src/features/compose/compose-model.ts';
import { formProblems, shownProblems } from '../../src/renderer/src/features/compose/compose-problems.ts';
import { EMPTY_SLOT, slotFromValue } from '../../src/renderer/src/features/compose/compose-slots.ts';
import { inputForCheck } from '../../src/renderer/src/features/compose/output-ref.ts';
import { formsForResult, resultSlot } from '../../src/renderer/src/features/compose/result-fill.ts';
import {
  entryOf,
  RESULT_OPERATIONS,
  resultFields,
  startingValues,
} from '../../src/renderer/src/features/compose/result-operations.ts';
import type { LoadedTask } from '../../src/renderer/src/model/task-status.ts';
import { useCompose } from '../../src/renderer/src/state/compose-state.ts';
import { entryById, type TaskOutput } from '../../src/shared/index.ts';

const place = { libraryDir: '/lib', mediaBaseUrl: 'studio-media://library/' };

function output(patch: Partial<TaskOutput>): TaskOutput {
  return {
    index: 0,
    kind: 'audio',
    url: 'https://service.test/song.wav',
    field: 'audio_url',
    state: 'saved',
    path: 'outputs/song-1/song.wav',
    thumbPath: null,
    mime: 'audio/wav',
    size: 1000,
    sha256: null,
    width: null,
    height: null,
    durationSeconds: 12.4,
    error: null,
    ...patch,
  };
}

function savedTask(
  id: string,
  taskType: string,
  input: Record<string, unknown>,
  outputs: TaskOutput[],
): Pick<LoadedTask, 'id' | 'title' | 'outputs' | 'request'> {
  return {
    id,
    title: `Task ${id}`,
    outputs,
    request: { model: 'service/x', task_type: taskType, input },
  };
}

const song = savedTask(
  'song-1',
  'txt2audio',
  { style_prompt: 'sea shanty, accordion', lyrics: '[verse]\nheave ho', duration: 12 },
  [output({})],
);
const picture = savedTask('swap-1', 'face-swap', { target_image: 'x', swap_image: 'y' }, [
  output({
    kind: 'image',
    path: 'outputs/swap-1/image.png',
    thumbPath: 'thumbs/swap-1.webp',
    width: 640,
    height: 480,
    durationSeconds: null,
  }),
]);

describe('the From a result tab reads its fields from the catalog', () => {
  it('shows every catalog field of an operation but its source and second names, in catalog order', () => {
    expect(resultFields('extend').map((f) => f.field)).toEqual([
      'style_prompt',
      'negative_prompt',
      'lyrics',
      'left_extend_duration',
      'right_extend_duration',
    ]);
    expect(resultFields('edit').map((f) => [f.field, f.kind])).toEqual([
      ['style_prompt', 'text'],
      ['lyrics', 'lyrics'],
      ['edit_style_prompt', 'text'],
      ['edit_lyrics', 'lyrics'],
    ]);
    expect(resultFields('upscale').map((f) => [f.field, f.kind, f.words.label])).toEqual([
      ['scale', 'number', 'Scale'],
      ['face_enhance', 'switch', 'Improve faces'],
    ]);
    // the example's text is the placeholder of its field
    expect(resultFields('segment').find((f) => f.field === 'prompt')?.example).toBe('the person on the left');
    // an operation is named by its task type, or by its entry's id when an earlier one has that task type
    for (const op of RESULT_OPERATIONS) expect([entryOf(op).taskType, entryOf(op).id], op).toContain(op);
  });

  it("starts from the catalog example's numbers and switches", () => {
    expect(startingValues('extend')).toEqual({ left_extend_duration: '0', right_extend_duration: '10' });
    expect(startingValues('upscale')).toEqual({ scale: '2', face_enhance: false });
    expect(startingValues('segment')).toEqual({});
  });

  it('sends the source as the operation names it, and a library result as $output', () => {
    const forms = emptyForms();
    forms.slots.source_audio = resultSlot(song, song.outputs[0]!, place);
    forms.fromResult.values.extend = { ...forms.fromResult.values.extend, style_prompt: 'more accordion' };
    expect(composeInput('fromResult', forms)).toMatchObject({
      model: 'ace-step',
      taskType: 'extend',
      input: {
        audio: { $output: { taskId: 'song-1', index: 0 } },
        style_prompt: 'more accordion',
        left_extend_duration: 0,
        right_extend_duration: 10,
      },
      local: [],
    });
    forms.fromResult.operation = 'audio2audio';
    const remix = composeInput('fromResult', forms);
    expect(remix.taskType).toBe('audio2audio');
    expect(remix.input).toEqual({ style_audio: { $output: { taskId: 'song-1', index: 0 } }, duration: 30 });
    // a picture operation takes the picture slot; a file path goes as text
    forms.fromResult.operation = 'upscale';
    forms.slots.source_image = { ...EMPTY_SLOT, value: '/tmp/a.png', status: 'ok', origin: 'file' };
    expect(composeInput('fromResult', forms).input).toEqual({
      image: '/tmp/a.png',
      scale: 2,
      face_enhance: false,
    });
  });

  it('checks a result as given, and says in plain words what is missing or wrong', () => {
    const forms = emptyForms();
    expect(formProblems('fromResult', forms).map((p) => [p.field, p.message, p.missing])).toEqual([
      ['source_audio', 'Add the song to extend', true],
    ]);
    forms.slots.source_audio = resultSlot(song, song.outputs[0]!, place);
    expect(formProblems('fromResult', forms)).toEqual([]);
    forms.fromResult.values.extend = { right_extend_duration: '0', left_extend_duration: '' };
    expect(formProblems('fromResult', forms).map((p) => p.field)).toEqual(['right_extend_duration']);
    forms.fromResult.values.extend = { right_extend_duration: '300', left_extend_duration: 'x' };
    expect(formProblems('fromResult', forms).map((p) => p.message)).toEqual([
      'Seconds before must be a number',
      'Seconds after must be from 0 to 240 seconds',
    ]);
    // a malformed marker blocks (an unknown tag such as [chrus] is only a warning, sent as written)
    forms.fromResult.values.extend = { right_extend_duration: '5', lyrics: '[verse]\nla\n[chorus\n' };
    expect(formProblems('fromResult', forms).map((p) => p.message)).toEqual([
      'Fix the lyrics marker on line 3',
    ]);
    forms.fromResult.operation = 'segment';
    const segment = formProblems('fromResult', forms);
    expect(segment.map((p) => [p.field, p.message])).toEqual([
      ['source_image', 'Add the picture to cut from'],
      ['prompt', 'What to cut out is needed'],
    ]);
    // before a Queue attempt, untouched empty fields say nothing
    expect(shownProblems(segment, {}, false)).toEqual({});
  });

  it('lets the catalog rules see a result in any media field as present', () => {
    const rules = entryById('image-toolkit/face-swap')!.input;
    const ref = { $output: { taskId: 't', index: 0 } };
    // a malformed reference is left for the rules to refuse (it is not text)
    expect(inputForCheck({ target_image: { $output: { taskId: '' } } }, rules).target_image).toEqual({
      $output: { taskId: '' },
    });
    expect(inputForCheck({ target_image: ref, swap_image: '/a.png' }, rules)).toEqual({
      target_image: 'library-result',
      swap_image: '/a.png',
    });
  });
});

describe('lineage in the draft', () => {
  it('sends parentId and parentOutput: the output for a result, null for a re-run', () => {
    const forms = emptyForms();
    const { tab, forms: filled } = formsForResult('extend', song, song.outputs[0]!, forms, place);
    expect(tab).toBe('fromResult');
    const built = buildDraft(tab, filled);
    expect(built).toMatchObject({
      ok: true,
      draft: {
        taskType: 'extend',
        title: 'Task song-1 (extended)',
        parentId: 'song-1',
        parentOutput: 0,
        input: { audio: { $output: { taskId: 'song-1', index: 0 } } },
      },
    });
    expect(built.ok && 'rerunOf' in built.draft).toBe(false);
  });
});

describe('the actions on a result', () => {
  it("extend starts in the song's style with empty lyrics for the new part", () => {
    const { forms } = formsForResult('extend', song, song.outputs[0]!, emptyForms(), place);
    expect(forms.fromResult.operation).toBe('extend');
    expect(forms.fromResult.values.extend).toEqual({
      left_extend_duration: '0',
      right_extend_duration: '10',
      style_prompt: 'sea shanty, accordion',
      negative_prompt: '',
    });
    expect(forms.slots.source_audio).toMatchObject({
      origin: 'result',
      status: 'ok',
      value: '',
      label: 'Task song-1',
      previewUrl: null,
      info: 'A result in your library · 12 s',
      result: {
        taskId: 'song-1',
        index: 0,
        mediaUrl: 'studio-media://library/outputs/song-1/song.wav',
        seconds: 12.4,
      },
    });
    expect(forms.parent.fromResult).toEqual({ taskId: 'song-1', output: 0, title: 'Task song-1' });
  });

  it('edit keeps what the song is; its new style and lyrics start empty, and an edit that changes nothing is refused', () => {
    const { forms } = formsForResult('edit', song, song.outputs[0]!, emptyForms(), place);
    // a copy of the song's own style and words would queue a billed edit that changes nothing
    expect(forms.fromResult.values.edit).toEqual({
      style_prompt: 'sea shanty, accordion',
      lyrics: '[verse]\nheave ho',
    });
    const problems = () => formProblems('fromResult', forms).map((p) => [p.field, p.message, p.missing]);
    expect(problems()).toEqual([
      ['edit_style_prompt', 'Write a new style or new lyrics: the edit changes nothing yet', true],
    ]);
    // the same again (tags mapped alike) is no change either
    forms.fromResult.values.edit = {
      ...forms.fromResult.values.edit,
      edit_style_prompt: ' sea shanty, accordion',
      edit_lyrics: '[Verse 1]\nheave ho',
    };
    expect(problems()).toEqual([
      ['edit_style_prompt', 'The new style and lyrics are the song’s own: write what should change', false],
    ]);
    forms.fromResult.values.edit.edit_lyrics = '[verse]\nheave away';
    expect(problems()).toEqual([]);
  });

  it('a picture goes to the slot its action names, shown by its thumbnail and title', () => {
    const current = emptyForms();
    current.slots.swap_image = slotFromValue('/lib/inputs/face.png', 'image', place);
    current.faceSwap = { ...current.faceSwap, mode: 'several' };
    const target = formsForResult('face-target', picture, picture.outputs[0]!, current, place);
    expect(target.tab).toBe('faceSwap');
    expect(target.forms.faceSwap.mode).toBe('one');
    expect(target.forms.slots.target_image).toMatchObject({
      origin: 'result',
      label: 'Task swap-1',
      previewUrl: 'studio-media://library/thumbs/swap-1.webp',
      info: 'A result in your library · 640 x 480 px',
    });
    // the face already there stays
    expect(target.forms.slots.swap_image.label).toBe('face.png');
    expect(buildDraft('faceSwap', target.forms)).toMatchObject({
      ok: true,
      draft: {
        taskType: 'face-swap',
        parentId: 'swap-1',
        parentOutput: 0,
        input: {
          target_image: { $output: { taskId: 'swap-1', index: 0 } },
          swap_image: '/lib/inputs/face.png',
        },
      },
    });
    const face = formsForResult('face', picture, picture.outputs[0]!, current, place);
    expect(face.forms.slots.swap_image.result?.taskId).toBe('swap-1');
    const edit = formsForResult('edit-image1', picture, picture.outputs[0]!, current, place);
    expect([edit.tab, edit.forms.slots.image1.origin]).toEqual(['imageEdit', 'result']);
    const upscale = formsForResult('upscale', picture, picture.outputs[0]!, current, place);
    expect([
      upscale.tab,
      upscale.forms.fromResult.operation,
      upscale.forms.slots.source_image.origin,
    ]).toEqual(['fromResult', 'upscale', 'result']);
  });

  it('multi-face swap opens the Face swap tab on several faces, with the face numbers checked', () => {
    const { tab, forms } = formsForResult(
      'multi-face-swap',
      picture,
      picture.outputs[0]!,
      emptyForms(),
      place,
    );
    expect([tab, forms.faceSwap.mode]).toEqual(['faceSwap', 'several']);
    forms.slots.swap_image = { ...EMPTY_SLOT, value: '/tmp/faces.png', status: 'ok', origin: 'file' };
    expect(composeInput('faceSwap', forms)).toMatchObject({
      taskType: 'multi-face-swap',
      input: { swap_faces_index: '0', target_faces_index: '0' },
      local: [],
    });
    forms.faceSwap = { ...forms.faceSwap, targetFacesIndex: '0, 2', swapFacesIndex: 'first' };
    const composed = composeInput('faceSwap', forms);
    expect(composed.input.target_faces_index).toBe('0,2');
    expect(formProblems('faceSwap', forms).map((p) => [p.field, p.message])).toEqual([
      ['swap_faces_index', 'Faces to use: face numbers separated by commas, such as 0 or 0,1'],
    ]);
  });
});

describe('what a tab is made from follows its slots', () => {
  it('stays while a slot still holds the result, and goes with the last one', () => {
    const target = formsForResult('face-target', picture, picture.outputs[0]!, emptyForms(), place);
    const both = formsForResult('face', picture, picture.outputs[0]!, target.forms, place);
    const compose = useCompose.getState();
    compose.fill('faceSwap', both.forms);
    expect(useCompose.getState().parent.faceSwap?.taskId).toBe('swap-1');
    // a file dropped on the target: the face still is the result
    compose.setSlot('target_image', { ...EMPTY_SLOT, value: '/tmp/deck.png', status: 'ok', origin: 'file' });
    expect(useCompose.getState().parent.faceSwap?.taskId).toBe('swap-1');
    compose.setSlot('swap_image', EMPTY_SLOT);
    expect(useCompose.getState().parent.faceSwap).toBeNull();
  });
});
