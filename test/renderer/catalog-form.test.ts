/**
 * The catalog's field words and widgets, and the generic form built from them: every field of
 * every entry has a label and a widget a form can show, a problem is said in the field's words,
 * and the form's values are the JSON editor's.
 */
import { describe, expect, it } from 'vitest';
import {
  formFields,
  jsonWith,
  numberOfText,
  valuesOfJson,
} from '../../src/renderer/src/features/compose/catalog-form/form-fields.ts';
import { EMPTY_SLOT, emptySlots } from '../../src/renderer/src/features/compose/compose-slots.ts';
import {
  emptyKindForm,
  entryGroups,
  entryPriceWords,
  entryShortLabel,
  type KindTab,
  kindFieldOrder,
  kindTabEntries,
  kindTabInput,
  kindTabOfEntry,
  mediaSlotsOf,
  TAB_KIND,
  withEntry,
} from '../../src/renderer/src/features/compose/kind-tabs.ts';
import { actionGroupsFor, actionsFor } from '../../src/renderer/src/features/compose/result-fill.ts';
import { RESULT_OPERATIONS } from '../../src/renderer/src/features/compose/result-operations.ts';
import { slotWords } from '../../src/renderer/src/features/compose/slot-words.ts';
import { DEMO_NO_PRICE } from '../../src/renderer/src/model/money-text.ts';
import {
  entryById,
  inputProblems,
  mediaKind,
  problemWords,
  TASK_TYPES,
  widgetOf,
} from '../../src/shared/index.ts';

describe('the catalog says each field in words and how a form edits it', () => {
  it('gives every field of every entry a label, and a widget that fits its type', () => {
    for (const entry of TASK_TYPES) {
      for (const [name, rule] of Object.entries(entry.input.fields)) {
        expect(rule.label.trim(), `${entry.id}: ${name}`).not.toBe('');
        const widget = widgetOf(rule);
        if (rule.media) expect(widget.kind, `${entry.id}: ${name}`).toBe('media');
        if (widget.kind === 'toggle') expect(rule.type).toBe('boolean');
        if (widget.kind === 'seed' || widget.kind === 'aspect-ratio') expect(rule.type).toBe('integer');
        if (widget.kind === 'number') expect(['number', 'integer']).toContain(rule.type);
        if (widget.kind === 'choice') {
          for (const choice of widget.choices) {
            expect(
              inputProblems({ [name]: choice.value }, { strict: false, fields: { [name]: rule } }),
              choice.label,
            ).toEqual([]);
          }
        }
        if (widget.kind === 'aspect-ratio') {
          for (const size of widget.sizes) {
            const input = { ...entry.example, [name]: size.width, [widget.height]: size.height };
            expect(inputProblems(input, entry.input, ''), size.label).toEqual([]);
          }
        }
      }
    }
  });

  it('explains the numbers a person cannot guess (flow shift, guidance) in plain words', () => {
    const edit = entryById('qwen-image/image-edit')!.input.fields;
    expect(edit.flow_shift!.label).toBe('Flow shift');
    expect(edit.flow_shift!.help).toMatch(/higher .* lower/);
    expect(entryById('flux1-schnell/txt2img')!.input.fields.guidance_scale!.help).toMatch(
      /follow the prompt/,
    );
  });

  it("says a problem in the field's words, the wire keeping the service's", () => {
    const flux = entryById('flux1-schnell/txt2img')!;
    const [problem] = inputProblems({ prompt: 'x', guidance_scale: 9 }, flux.input);
    expect(problem!.message).toBe('input.guidance_scale must be between 1.5 and 5, got 9');
    expect(problemWords(problem!, flux.input.fields.guidance_scale)).toBe('Guidance must be from 1.5 to 5');
    const extend = entryById('ace-step/extend')!.input.fields;
    const [tooMany] = inputProblems(
      { audio: 'a', right_extend_duration: 300 },
      entryById('ace-step/extend')!.input,
      '',
    );
    expect(problemWords(tooMany!, extend.right_extend_duration)).toBe(
      'Seconds after must be from 0 to 240 seconds',
    );
    const [none] = inputProblems({ batch_size: 2 }, flux.input, '');
    expect(problemWords(none!, flux.input.fields.prompt)).toBe('Prompt is needed');
  });
});

describe('the generic form and the keep-going actions are made from the catalog', () => {
  it("shows an entry's fields in catalog order, leaving out second names and what a size sets", () => {
    const flux = entryById('flux1-schnell/txt2img')!;
    expect(formFields(flux).map((f) => [f.name, f.widget.kind])).toEqual([
      ['prompt', 'long-text'],
      ['negative_prompt', 'long-text'],
      ['width', 'aspect-ratio'],
      ['guidance_scale', 'number'],
      ['batch_size', 'choice'],
      ['seed', 'seed'],
    ]);
    const extend = entryById('ace-step/extend')!;
    expect(formFields(extend, ['audio']).map((f) => f.name)).toEqual([
      'style_prompt',
      'negative_prompt',
      'lyrics',
      'left_extend_duration',
      'right_extend_duration',
    ]);
  });

  it("writes the form's values into the JSON editor's object, keeping its other keys", () => {
    const json = '{\n  "prompt": "a cat",\n  "extra": 1\n}';
    const next = jsonWith(json, { guidance_scale: 3.5, extra: undefined, seed: 7 });
    expect(valuesOfJson(next!)).toEqual({ prompt: 'a cat', guidance_scale: 3.5, seed: 7 });
    expect(jsonWith('[1]', { seed: 1 })).toBeNull();
    expect(jsonWith('', { seed: 1 })).toBe('{\n  "seed": 1\n}');
    expect([
      numberOfText('', 'integer'),
      numberOfText('12', 'integer'),
      numberOfText('1.5', 'integer'),
    ]).toEqual([undefined, 12, '1.5']);
  });

  it('offers the operations and keep-going actions the catalog has, by the kind of the result', () => {
    expect(RESULT_OPERATIONS).toEqual([
      'audio2audio',
      'edit',
      'extend',
      'background-remove',
      'segment',
      'upscale',
      // an operation whose task type an earlier one has is named by its entry's id
      'video-toolkit/upscale',
      'img2img',
      'flux1-dev/img2img',
      'img2video-concat',
      'img2video-replace',
      'img2video-14b',
      'image-to-3d',
      'trellis2/image-to-3d',
    ]);
    expect(actionsFor('audio').map((a) => [a.id, a.label])).toEqual([
      ['audio2audio', 'Remix'],
      ['edit', 'Edit'],
      ['extend', 'Extend'],
    ]);
    expect(actionsFor('image').map((a) => a.label)).toEqual([
      'Edit (as image1)',
      'Use as face-swap target',
      'Use as face',
      'Multi-face swap',
      'Remove background',
      'Segment',
      'Upscale',
      'Image to image (Flux schnell)',
      'Image to image (Flux dev)',
      'Video (Hunyuan, more motion)',
      'Video (Hunyuan, close to the picture)',
      'Video (Wanx 14B)',
      '3D model (Trellis)',
      '3D model (Trellis 2)',
    ]);
    expect(actionsFor('3d')).toEqual([]);
    // the detail groups them by what they make: the kind's own tools first
    const groups = (kind: 'image' | 'audio' | 'video') =>
      actionGroupsFor(kind).map((g) => [g.label, g.actions.map((a) => a.id)]);
    expect(groups('image')).toEqual([
      [
        'Picture tools',
        [
          'edit-image1',
          'face-target',
          'face',
          'multi-face-swap',
          'background-remove',
          'segment',
          'upscale',
          'img2img',
          'flux1-dev/img2img',
        ],
      ],
      ['Into a video', ['img2video-concat', 'img2video-replace', 'img2video-14b']],
      ['Into 3D', ['image-to-3d', 'trellis2/image-to-3d']],
    ]);
    expect(groups('audio')).toEqual([['Sound tools', ['audio2audio', 'edit', 'extend']]]);
    expect(groups('video')).toEqual([['Video tools', ['video-toolkit/upscale', 'video-toolkit/face-swap']]]);
    // a video goes into an upscale (From a result) and into a face swap (the Video tab)
    expect(actionsFor('video').map((a) => [a.id, a.label])).toEqual([
      ['video-toolkit/upscale', 'Upscale video'],
      ['video-toolkit/face-swap', 'Swap a face into the video'],
    ]);
  });
});

describe('the Image, Video and 3D tabs are lists of catalog entries', () => {
  const ids = (tab: KindTab) => kindTabEntries(tab).map((e) => e.id);
  const groups = (tab: KindTab) =>
    entryGroups(tab).map((g) => [
      g.label,
      g.entries.map((e) => `${entryShortLabel(e)} · ${entryPriceWords(e)}`),
    ]);

  it('lists every entry that makes its kind, but the picture tools and the sandbox-only models', () => {
    for (const entry of TASK_TYPES) {
      const tab = kindTabOfEntry(entry.id);
      const listed = entry.family === 'other' && !entry.sandboxOnly && entry.modelName !== 'image-toolkit';
      expect(tab !== undefined, entry.id).toBe(listed && ['image', 'video', '3d'].includes(entry.outputKind));
      if (tab) expect(TAB_KIND[tab]).toBe(entry.outputKind);
    }
    expect(ids('image')).toContain('flux1-schnell/txt2img');
    expect(ids('model3d')).toEqual(['trellis/image-to-3d', 'trellis/text-to-3d', 'trellis2/image-to-3d']);
  });

  it('groups them by what they start from, each with its price beside it', () => {
    expect(groups('video')).toEqual([
      [
        'From text',
        [
          'Hunyuan, fast · $0.03 per task',
          'Hunyuan · $0.09 per task',
          'Wanx 1.3B · $0.12 per task',
          'Wanx 14B · $0.28 per task',
        ],
      ],
      [
        'From a picture',
        [
          'Hunyuan, more motion · $0.09 per task',
          'Hunyuan, close to it · $0.09 per task',
          'Wanx 14B · $0.28 per task',
        ],
      ],
      [
        'From a video',
        ['Video upscale · $0.0003 per frame', 'Video face swap · price not published: asked first'],
      ],
    ]);
    expect(groups('image').map(([label]) => label)).toEqual(['From text', 'From a picture']);
    expect(groups('model3d').map(([label]) => label)).toEqual(['From text', 'From a picture']);
  });

  it('says in demo mode that an entry without a price is not billed, as the Queue bar does (Queue never asks there)', () => {
    const faceSwap = kindTabEntries('video').find((e) => e.id === 'video-toolkit/face-swap');
    const upscale = kindTabEntries('video').find((e) => e.id === 'video-toolkit/upscale');
    if (!faceSwap || !upscale) throw new Error('no video face swap or upscale');
    expect(entryPriceWords(faceSwap, {}, true)).toBe(DEMO_NO_PRICE);
    expect(DEMO_NO_PRICE).toBe('no published price; demo tasks are not billed');
    expect(entryPriceWords(faceSwap, {}, false)).toBe('price not published: asked first');
    expect(entryPriceWords(upscale, {}, true)).toBe(entryPriceWords(upscale, {}, false));
  });

  it('opens every tab on the first entry it lists, as the Image tab does (review s7b, defect 9)', () => {
    for (const tab of ['image', 'video', 'model3d'] as const) {
      expect(emptyKindForm(tab).entryId, tab).toBe(entryGroups(tab)[0]?.entries[0]?.id);
    }
    expect(emptyKindForm('model3d').entryId).toBe('trellis/text-to-3d');
  });

  it("puts an entry's media fields in the tab's slots and its other values in the input", () => {
    const faceOnVideo = entryById('video-toolkit/face-swap');
    if (!faceOnVideo) throw new Error('no video face swap');
    expect(mediaSlotsOf('video', faceOnVideo).map((m) => [m.field, m.slot])).toEqual([
      ['target_video', 'video_source'],
      ['swap_image', 'video_picture'],
    ]);
    const slots = {
      ...emptySlots(),
      video_picture: { ...EMPTY_SLOT, value: '/p/face.png', status: 'ok' as const },
      video_source: { ...EMPTY_SLOT, value: '/p/clip.mp4', status: 'ok' as const },
    };
    const form = withEntry(emptyKindForm('video'), faceOnVideo);
    const composed = kindTabInput('video', { ...form, json: '{"target_faces_index":"0"}' }, slots);
    expect(composed).toMatchObject({ model: 'video-toolkit', taskType: 'face-swap', readable: true });
    expect(composed.input).toEqual({
      target_faces_index: '0',
      target_video: '/p/clip.mp4',
      swap_image: '/p/face.png',
    });
    // the same slot is the picture a Hunyuan video starts from
    const hunyuan = entryById('hunyuan/img2video-concat');
    if (!hunyuan) throw new Error('no hunyuan');
    const fromPicture = kindTabInput('video', withEntry(form, hunyuan), slots);
    expect(fromPicture.input.image).toBe('/p/face.png');
    expect(fromPicture.input).not.toHaveProperty('target_video');
  });

  it("names each slot's buttons by its media kind, whatever the article of the field's label", () => {
    for (const tab of ['image', 'video', 'model3d'] as const) {
      for (const entry of kindTabEntries(tab)) {
        for (const { field, rule, slot } of mediaSlotsOf(tab, entry)) {
          const kind = mediaKind(rule.kind);
          const label = entry.input.fields[field]?.label ?? field;
          const words = slotWords(slot, label);
          const where = `${entry.id} ${field} (${label})`;
          expect(words.title, where).toBe(label);
          expect(words.browse, where).toBe(`Choose ${kind.words.chosen}…`);
          expect(words.replace, where).toBe(`Replace ${kind.label}`);
          expect(words.remove, where).toBe(`Remove ${kind.label}`);
          for (const text of [words.replace, words.remove, words.chooser, words.url])
            expect(text, where).not.toMatch(/\b(the|a|an)\b/i);
        }
      }
    }
    // the words a person reads on the video face swap's slots
    const faceOnVideo = entryById('video-toolkit/face-swap');
    if (!faceOnVideo) throw new Error('no video face swap');
    const [video] = mediaSlotsOf('video', faceOnVideo);
    expect(video && slotWords(video.slot, faceOnVideo.input.fields[video.field]?.label)).toMatchObject({
      title: 'The video',
      browse: 'Choose a video…',
      replace: 'Replace video',
      remove: 'Remove video',
    });
    // a hand-made slot keeps its own name: two pictures of one tab are told apart by it
    expect(slotWords('swap_image')).toMatchObject({
      browse: 'Browse for Face image',
      replace: 'Replace Face image',
    });
  });

  it('prices a size-tiered entry by the size in its form, else from its least tier', () => {
    const zImage = entryById('z-image/txt2img');
    if (!zImage) throw new Error('no z-image');
    expect(entryPriceWords(zImage)).toBe('from $0.002 per image');
    expect(entryPriceWords(zImage, { width: 1024, height: 1024 })).toBe('$0.004 per image');
    expect(entryPriceWords(zImage, { width: 512, height: 512 })).toBe('$0.002 per image');
  });

  it('keeps what was typed for the fields the next entry has too', () => {
    const schnell = emptyKindForm('image');
    expect(schnell.entryId).toBe('flux1-schnell/txt2img');
    const typed = {
      ...schnell,
      json: JSON.stringify({ prompt: 'a red fox', batch_size: 3, width: 512, height: 512 }),
    };
    const dev = entryById('flux1-dev/txt2img');
    if (!dev) throw new Error('no flux dev');
    const next = withEntry(typed, dev);
    // Flux dev has no batch_size: it is left out; the prompt and size stay
    expect(JSON.parse(next.json)).toEqual({ prompt: 'a red fox', width: 512, height: 512 });
    expect(kindFieldOrder('image', next)).toEqual([
      'entry',
      'prompt',
      'negative_prompt',
      'width',
      'guidance_scale',
      'steps',
      'seed',
    ]);
  });
});
