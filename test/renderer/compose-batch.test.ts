import { describe, expect, it } from 'vitest';
import {
  emptyBatch,
  lyricsParts,
  planBatch,
  queueLabel,
} from '../../src/renderer/src/features/compose/compose-batch.ts';
import { composeInput, emptyForms } from '../../src/renderer/src/features/compose/compose-model.ts';
import { formProblems } from '../../src/renderer/src/features/compose/compose-problems.ts';
import { EMPTY_SLOT, type SlotState } from '../../src/renderer/src/features/compose/compose-slots.ts';
import { NO_LIST_PRICE, queueCost } from '../../src/renderer/src/features/compose/queue-cost.ts';
import { PICTURE_TOOLS } from '../../src/renderer/src/features/compose/result-operations.ts';
import { messagePieces } from '../../src/renderer/src/model/message-pieces.ts';

const picture = (value: string, status: SlotState['status'] = 'ok'): SlotState => ({
  ...EMPTY_SLOT,
  value,
  label: value,
  origin: 'file',
  status,
});

describe('batches from one form', () => {
  it('Picture tools: its tools come from the catalog; one task per picture, and no variations of a deterministic tool', () => {
    expect(PICTURE_TOOLS).toEqual(['background-remove', 'segment', 'upscale']);
    const forms = emptyForms();
    forms.fromResult = { ...forms.fromResult, tool: 'upscale' };
    forms.slots.source_image = picture('/a.png');
    const batch = {
      ...emptyBatch(),
      variations: { ...emptyBatch().variations, pictures: 3 },
      extra: { target_image: [], source_image: [picture('/b.png')] },
    };
    const plan = planBatch('pictures', forms, batch);
    if (!plan.ok) throw new Error(plan.message);
    // an upscale of the same picture is the same picture: the 3 variations a saved form asks for are not made
    expect(plan.drafts.map((d) => [d.taskType, d.input.image])).toEqual([
      ['upscale', '/a.png'],
      ['upscale', '/b.png'],
    ]);
    expect(queueLabel(plan)).toBe('Queue 2 tasks');
    // the From a result tab keeps its own operation
    expect(planBatch('fromResult', forms, batch)).toMatchObject({ ok: true });
    expect(forms.fromResult.operation).toBe('extend');
  });

  it('image edit variations sweep the seed from the one given, or from the random start', () => {
    const forms = emptyForms();
    forms.slots.image1 = picture('/a.png');
    forms.imageEdit = { ...forms.imageEdit, prompt: 'make it blue', seed: '41' };
    const batch = { ...emptyBatch(), variations: { ...emptyBatch().variations, imageEdit: 4 } };
    const plan = planBatch('imageEdit', forms, batch);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.drafts.map((d) => d.input.seed)).toEqual([41, 42, 43, 44]);
    expect(plan.seeds).toEqual({ first: 41, last: 44, random: false });
    expect(queueLabel(plan)).toBe('Queue 4 variations');
    expect(plan.micros).not.toBeNull();

    forms.imageEdit = { ...forms.imageEdit, seed: '' };
    const random = planBatch('imageEdit', forms, { ...batch, seedStart: 7 });
    if (!random.ok) throw new Error(random.message);
    expect(random.drafts.map((d) => d.input.seed)).toEqual([7, 8, 9, 10]);
    expect(random.seeds?.random).toBe(true);
  });

  it('prompt lists: alternatives and one task per line multiply with variations; over 100 is refused in words', () => {
    const forms = emptyForms();
    forms.slots.image1 = picture('/a.png');
    forms.imageEdit = { ...forms.imageEdit, prompt: 'make it {blue|red}', seed: '5' };
    const two = { ...emptyBatch(), variations: { ...emptyBatch().variations, imageEdit: 2 } };
    const plan = planBatch('imageEdit', forms, two);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.drafts.map((d) => [d.input.prompt, d.input.seed])).toEqual([
      ['make it blue', 5],
      ['make it red', 5],
      ['make it blue', 6],
      ['make it red', 6],
    ]);
    expect(queueLabel(plan)).toBe('Queue 4 tasks');
    const each = planBatch(
      'imageEdit',
      { ...forms, imageEdit: { ...forms.imageEdit, prompt: 'x' } },
      emptyBatch(),
    );
    expect(each.ok && plan.micros).toBe(each.ok ? 4 * (each.micros as number) : null);

    forms.imageEdit = { ...forms.imageEdit, prompt: 'sky\n\nsea {calm|rough}' };
    const lines = planBatch('imageEdit', forms, { ...emptyBatch(), promptLines: { imageEdit: true } });
    if (!lines.ok) throw new Error(lines.message);
    expect(lines.drafts.map((d) => d.input.prompt)).toEqual(['sky', 'sea calm', 'sea rough']);
    // off: the lines stay one prompt
    const off = planBatch(
      'imageEdit',
      { ...forms, imageEdit: { ...forms.imageEdit, prompt: 'a\nb' } },
      emptyBatch(),
    );
    expect(off.ok && off.drafts.map((d) => d.input.prompt)).toEqual(['a\nb']);

    const many = Array.from({ length: 60 }, (_, i) => `p${i}`).join('\n');
    forms.imageEdit = { ...forms.imageEdit, prompt: many };
    const over = planBatch('imageEdit', forms, { ...two, promptLines: { imageEdit: true } });
    expect(over).toEqual({
      ok: false,
      field: 'prompt',
      message: 'this makes 120 tasks; at most 100 can be queued at once (use fewer alternatives or lines)',
      list: true,
    });
    forms.imageEdit = { ...forms.imageEdit, prompt: 'a {b|{c}}' };
    expect(planBatch('imageEdit', forms, emptyBatch())).toMatchObject({ ok: false, field: 'prompt' });
  });

  it('a prompt list that cannot be read or makes over 100 is a problem of its field, naming it (review of issue 22, items 7 and 8)', () => {
    const forms = emptyForms();
    const image = (values: Record<string, unknown>) => ({
      ...forms,
      kinds: { ...forms.kinds, image: { entryId: 'flux1-schnell/txt2img', json: JSON.stringify(values) } },
    });
    const nested = formProblems('image', image({ prompt: 'a {red|{dark|light} blue} car' }));
    expect(nested.map((p) => [p.field, p.message, p.summary])).toEqual([
      [
        'prompt',
        'Braces inside braces at character 8 of the prompt: alternatives cannot be nested (write \\{ for a brace in the text)',
        'Braces inside braces at character 8 of the prompt: alternatives cannot be nested (write \\{ for a brace in the text)',
      ],
    ]);
    const open = formProblems('image', image({ prompt: 'a car', negative_prompt: '{blur|noise' }));
    expect(open.map((p) => [p.field, p.message])).toEqual([
      [
        'negative_prompt',
        'The { at character 1 of the negative prompt is not closed: end its alternatives with } (or write \\{ for a brace in the text)',
      ],
    ]);
    const many = '{a|b|c|d|e|f|g|h|i|j} {1|2|3|4|5|6|7|8|9|10} {x|y}';
    expect(formProblems('image', image({ prompt: many })).map((p) => [p.field, p.message])).toEqual([
      ['prompt', 'This makes 200 tasks; at most 100 can be queued at once (use fewer alternatives or lines)'],
    ]);
    // with "One task per line", each line is read on its own and says which it is
    const lines = formProblems('image', image({ prompt: 'a cat\n{dog|fox' }), undefined, { lines: true });
    expect(lines.map((p) => p.message)).toEqual([
      'The { at character 1 of line 2 of the prompt is not closed: end its alternatives with } (or write \\{ for a brace in the text)',
    ]);
    expect(formProblems('image', image({ prompt: 'a {red|blue} car' }))).toEqual([]);
    // the escape a message tells the user to type is shown as one piece, never broken across lines
    expect(messagePieces(open[0]!.message).filter((p) => p.unbroken)).toEqual([
      { text: '\\{', unbroken: true },
    ]);
    expect(messagePieces('a \\{ b \\\\ c')).toEqual([
      { text: 'a ', unbroken: false },
      { text: '\\{', unbroken: true },
      { text: ' b ', unbroken: false },
      { text: '\\\\', unbroken: true },
      { text: ' c', unbroken: false },
    ]);
    expect(messagePieces('no escape')).toEqual([{ text: 'no escape', unbroken: false }]);
  });

  it('a list not queued as written shows no price, even while another field stops the draft (issue 22 leftovers, item 3)', () => {
    const forms = emptyForms();
    const image = (values: Record<string, unknown>) => ({
      ...forms,
      kinds: { ...forms.kinds, image: { entryId: 'flux1-schnell/txt2img', json: JSON.stringify(values) } },
    });
    const costOf = (values: Record<string, unknown>, lines = false) => {
      const f = image(values);
      const batch = { ...emptyBatch(), promptLines: { image: lines } };
      return queueCost(planBatch('image', f, batch), composeInput('image', f), lines);
    };
    const none = { amount: '—', detail: 'no price until the list is fixed', none: true };
    expect(NO_LIST_PRICE).toEqual(none);
    // the prompt (needed) empty and the negative prompt's brace not closed: no price, not one task's
    expect(costOf({ prompt: '', negative_prompt: '{blur|noise' })).toEqual(none);
    expect(costOf({ prompt: 'a car', negative_prompt: '{blur|noise' })).toEqual(none);
    expect(
      costOf({ prompt: '', negative_prompt: '{a|b|c|d|e|f|g|h|i|j} {1|2|3|4|5|6|7|8|9|10} {x|y}' }),
    ).toEqual(none);
    // a field the form cannot read (the draft is not made) beside a brace not closed: no price either
    const edit = emptyForms();
    edit.slots.image1 = picture('/a.png');
    edit.imageEdit = { ...edit.imageEdit, prompt: 'make it {blue|red', seed: 'five' };
    const editPlan = planBatch('imageEdit', edit, emptyBatch());
    expect(editPlan).toMatchObject({ ok: false, field: 'seed' });
    expect(queueCost(editPlan, composeInput('imageEdit', edit), false)).toEqual(none);
    // a form with only an empty needed field keeps one task's price, as before
    expect(costOf({ prompt: '' }).amount).toMatch(/^\$/);
    expect(costOf({ prompt: 'a {red|blue} car' }).detail).toMatch(/^2 x \$/);
  });

  it('in demo mode a task type with no published price says it is not billed, not that Queue asks (review s7b, defect 4)', () => {
    const forms = emptyForms();
    forms.kinds.video = { entryId: 'video-toolkit/face-swap', json: '{}' };
    forms.slots.video_source = picture('/clip.mp4');
    forms.slots.video_picture = picture('/face.png');
    const plan = planBatch('video', forms, emptyBatch());
    const composed = composeInput('video', forms);
    expect(queueCost(plan, composed, false)).toEqual({
      amount: null,
      detail: 'no published price; Queue asks first',
    });
    expect(queueCost(plan, composed, false, true)).toEqual({
      amount: null,
      detail: 'no published price; demo tasks are not billed',
    });
    const two = planBatch('video', forms, {
      ...emptyBatch(),
      variations: { ...emptyBatch().variations, video: 2 },
    });
    expect(queueCost(two, composed, false, true).detail).toBe(
      'price unknown for 2 tasks; demo tasks are not billed',
    );
    expect(queueCost(two, composed, false).detail).toBe('price unknown for 2 tasks; Queue asks first');
  });

  it('a face swap with extra targets makes one task per target, the same face', () => {
    const forms = emptyForms();
    forms.slots.target_image = picture('/t1.png');
    forms.slots.swap_image = picture('/face.png');
    const batch = {
      ...emptyBatch(),
      extra: { target_image: [picture('/t2.png'), picture('/t3.png')], source_image: [] },
    };
    const plan = planBatch('faceSwap', forms, batch);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.drafts.map((d) => [d.input.target_image, d.input.swap_image])).toEqual([
      ['/t1.png', '/face.png'],
      ['/t2.png', '/face.png'],
      ['/t3.png', '/face.png'],
    ]);
    expect(queueLabel(plan)).toBe('Queue 3 tasks');
    const checking = planBatch('faceSwap', forms, {
      ...batch,
      extra: { target_image: [picture('/t2.png', 'checking')], source_image: [] },
    });
    expect(checking).toMatchObject({
      ok: false,
      field: 'target_image',
      message: 'Target 2 (/t2.png) is still being checked',
    });
  });

  it('songs split at lines holding only ---, each part one song; variations repeat the same inputs', () => {
    expect(lyricsParts('[verse]\nA\n---\n[verse]\nB\n  ---  \n\n---\nC')).toEqual([
      '[verse]\nA',
      '[verse]\nB',
      'C',
    ]);
    const forms = emptyForms();
    forms.song = { ...forms.song, stylePrompt: 'lo-fi', lyrics: 'one\n---\ntwo' };
    const split = planBatch('song', forms, { ...emptyBatch(), songSplit: true });
    if (!split.ok) throw new Error(split.message);
    expect(split.drafts.map((d) => d.input.lyrics)).toEqual(['one', 'two']);
    const copies = planBatch('song', forms, {
      ...emptyBatch(),
      variations: { ...emptyBatch().variations, song: 3 },
    });
    if (!copies.ok) throw new Error(copies.message);
    expect(copies.drafts.map((d) => d.input.lyrics)).toEqual(Array(3).fill('one\n---\ntwo'));
    expect(queueLabel(copies)).toBe('Queue 3 variations');
  });

  it('an upscale of several pictures: one task each; only the one made from a result keeps it as parent', () => {
    const forms = emptyForms();
    forms.fromResult = { ...forms.fromResult, operation: 'upscale' };
    forms.slots.source_image = {
      ...picture(''),
      origin: 'result',
      result: { taskId: 'parent-1', index: 0, mediaUrl: null, seconds: null },
    };
    forms.parent = { ...forms.parent, fromResult: { taskId: 'parent-1', output: 0, title: 'Beach' } };
    const batch = {
      ...emptyBatch(),
      extra: { target_image: [], source_image: [picture('/b.png'), picture('/c.png')] },
    };
    const plan = planBatch('fromResult', forms, batch);
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.drafts.map((d) => d.input.image)).toEqual([
      { $output: { taskId: 'parent-1', index: 0 } },
      '/b.png',
      '/c.png',
    ]);
    expect(plan.drafts.map((d) => d.parentId ?? null)).toEqual(['parent-1', null, null]);
    expect(queueLabel(plan)).toBe('Queue 3 tasks');
  });
});
