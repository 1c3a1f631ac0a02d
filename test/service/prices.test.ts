import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateCost,
  estimatePrice,
  formatUsd,
  MODELS,
  type PriceRule,
  priceWords,
  TASK_FAMILIES,
  TASK_TYPES,
  type TaskFamily,
  typeGroupMembers,
  typeGroupOf,
} from '../../src/shared/index.ts';

function audio(duration: unknown) {
  return { model: MODELS.audio, task_type: 'txt2audio', input: { style_prompt: 'jazz', duration } };
}

describe('estimateCost', () => {
  it('prices txt2audio per started second at $0.0005', () => {
    expect(estimateCost(audio(30))).toEqual({ micros: 15_000, explanation: '30 s x $0.0005/s' });
    expect(estimateCost(audio(30.2)).micros).toBe(15_500);
    expect(estimateCost(audio(240)).micros).toBe(120_000);
  });

  it.each([[undefined], [0], [-5], [Number.NaN], [Number.POSITIVE_INFINITY], ['30']])(
    'gives no price for txt2audio with duration %j',
    (duration) => {
      const estimate = estimateCost(audio(duration));
      expect(estimate.micros).toBeNull();
      expect(estimate.explanation).toMatch(/duration/);
    },
  );

  it('prices image-edit, face-swap and multi-face-swap per unit', () => {
    const edit = estimateCost({
      model: MODELS.imageEdit,
      task_type: 'image-edit',
      input: { image1: 'x', prompt: 'y' },
    });
    expect(edit).toEqual({ micros: 25_000, explanation: '$0.025 per image' });
    const swap = estimateCost({ model: MODELS.imageToolkit, task_type: 'face-swap', input: {} });
    expect(swap).toEqual({ micros: 10_000, explanation: '$0.01 per generation' });
    expect(estimateCost({ model: MODELS.imageToolkit, task_type: 'multi-face-swap', input: {} }).micros).toBe(
      15_000,
    );
  });

  it('says when a price is not published', () => {
    const estimate = estimateCost({ model: MODELS.video, task_type: 'txt2video', input: {} });
    expect(estimate.micros).toBeNull();
    expect(estimate.explanation).toBe('no published price for txt2video');
  });

  it('is ceil(duration) x 500 micros and never decreases with the duration', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 10_000, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (d, more) => {
          const a = estimateCost(audio(d)).micros;
          const b = estimateCost(audio(d + more)).micros;
          expect(a).toBe(Math.ceil(d) * 500);
          expect(b).not.toBeNull();
          expect(b as number).toBeGreaterThanOrEqual(a as number);
        },
      ),
    );
  });
});

describe('prices by model and task type, in the units the service uses', () => {
  const flux = (input: Record<string, unknown>) =>
    estimateCost({ model: 'Qubico/flux1-schnell', task_type: 'txt2img', input });

  it('prices Flux schnell txt2img per image x batch_size (default 1), not as the sandbox model of the same task type', () => {
    expect(flux({ prompt: 'a fox' })).toEqual({ micros: 1500, explanation: '1 image x $0.0015' });
    expect(flux({ prompt: 'a fox', batch_size: 4 })).toEqual({
      micros: 6000,
      explanation: '4 images x $0.0015',
    });
    expect(
      estimateCost({ model: 'flux1-schnell', task_type: 'txt2img', input: { batch_size: 2 } }).micros,
    ).toBe(3000);
    expect(
      estimateCost({ model: MODELS.imageGen, task_type: 'txt2img', input: { prompt: 'a fox' } }).micros,
    ).toBeNull();
    // a pair the catalog does not know has no price
    const unknown = estimateCost({ model: 'Qubico/flux1-dev-advanced', task_type: 'txt2img', input: {} });
    expect(unknown).toEqual({
      micros: null,
      explanation: 'no published price for flux1-dev-advanced txt2img',
    });
  });

  it('prices the video upscale per frame: asks while the frame count is unknown, never $0', () => {
    const request = {
      model: 'Qubico/video-toolkit',
      task_type: 'upscale',
      input: { video: 'https://x.example/a.mp4' },
    };
    const unknown = estimateCost(request);
    expect(unknown.micros).toBeNull();
    expect(unknown.explanation).toBe('$0.0003 per frame: the frame count of video is not known yet');
    expect(estimateCost(request, { video: { frames: 120 } })).toEqual({
      micros: 36_000,
      explanation: '120 frames x $0.0003',
    });
    // the picture upscale of image-toolkit is another entry, with no published price
    expect(
      estimateCost({ model: 'Qubico/image-toolkit', task_type: 'upscale', input: {} }).micros,
    ).toBeNull();
  });

  it('prices background removal at $0.001 and segment at $0.01 per megapixel, rounded up', () => {
    const toolkit = (task_type: string) => ({ model: MODELS.imageToolkit, task_type, input: { image: 'x' } });
    expect(estimateCost(toolkit('background-remove'))).toEqual({
      micros: 1000,
      explanation: '$0.001 per image',
    });
    expect(estimateCost(toolkit('segment'))).toEqual({
      micros: null,
      explanation: '$0.01 per megapixel: the size of image is not known yet',
    });
    expect(estimateCost(toolkit('segment'), { image: { width: 1024, height: 1024 } })).toEqual({
      micros: 10_000,
      explanation: '1 MP x $0.01',
    });
    expect(estimateCost(toolkit('segment'), { image: { width: 1500, height: 1000 } }).micros).toBe(20_000);
  });

  it('prices by output size in tiers (z-image: <= 0.5 / 1 / 1.5 / more MP), x batch_size', () => {
    const tiers: PriceRule = {
      unit: 'output-size',
      tiers: [
        { maxMegapixels: 0.5, micros: 2000 },
        { maxMegapixels: 1, micros: 4000 },
        { maxMegapixels: 1.5, micros: 6000 },
        { maxMegapixels: null, micros: 8000 },
      ],
      countField: 'batch_size',
    };
    expect(estimatePrice(tiers, { width: 512, height: 512 })).toEqual({
      micros: 2000,
      explanation: '1 image of 0.25 MP x $0.002',
    });
    expect(estimatePrice(tiers, { width: 1024, height: 1024 }).micros).toBe(4000);
    expect(estimatePrice(tiers, { width: 1280, height: 1024 }).micros).toBe(6000);
    expect(estimatePrice(tiers, { width: 2048, height: 2048, batch_size: 2 }).micros).toBe(16_000);
    const none = estimatePrice(tiers, { prompt: 'no size' });
    expect(none.micros).toBeNull();
    expect(none.explanation).toMatch(/width and height are needed/);
  });

  it('a count or size the input gets wrong gives no price rather than a wrong one', () => {
    expect(flux({ batch_size: 0 }).micros).toBeNull();
    expect(flux({ batch_size: 2.5 }).micros).toBeNull();
    expect(flux({ batch_size: '2' }).micros).toBeNull();
    const request = { model: 'Qubico/video-toolkit', task_type: 'upscale', input: { video: 'x' } };
    expect(estimateCost(request, { video: { frames: 0 } }).micros).toBeNull();
  });
});

describe('the catalog keyed by model and task type', () => {
  it('has one entry per pair, ids <model>/<task type>, and no task type under two Type groups', () => {
    const ids = TASK_TYPES.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of TASK_TYPES) expect(e.id).toBe(`${e.modelName}/${e.taskType}`);
    // the store's Type filter goes by family and task type (typeGroupMembers): a task of each
    // entry is listed under exactly the group its entry makes, though task types repeat across
    // models (face-swap on image-toolkit and video-toolkit)
    const inGroup = (group: TaskFamily, family: TaskFamily, taskType: string) => {
      const m = typeGroupMembers(group);
      const arms = [family === m.family && !m.exceptTypes.includes(taskType), m.alsoTypes.includes(taskType)];
      // the store walks each arm: a task under two would be listed twice
      expect(arms.filter(Boolean).length, `${taskType} of ${family} under ${group}`).toBeLessThan(2);
      return arms.some(Boolean);
    };
    for (const e of TASK_TYPES) {
      for (const group of TASK_FAMILIES) {
        expect(inGroup(group, e.family, e.taskType), `${e.id} under ${group}`).toBe(e.makes === group);
      }
    }
    const task = { model: 'Qubico/image-toolkit', taskType: 'multi-face-swap', family: 'other' as const };
    expect(typeGroupOf(task)).toBe('face-swap');
  });

  it('says each price rule in a few words ending in its unit', () => {
    expect(priceWords({ unit: 'image', micros: 1500, countField: 'batch_size' })).toBe('$0.0015 per image');
    expect(priceWords({ unit: 'frame', micros: 300, field: 'video' })).toBe('$0.0003 per frame');
    expect(priceWords({ unit: 'megapixel', micros: 10_000, field: 'image' })).toBe('$0.01 per megapixel');
    expect(priceWords({ unit: 'generation', micros: 10_000 })).toBe('$0.01 per task');
    const tiers = [
      { maxMegapixels: 1, micros: 4000 },
      { maxMegapixels: null, micros: 2000 },
    ];
    expect(priceWords({ unit: 'output-size', tiers })).toBe('from $0.002 per image');
    // with the size known, its tier's price; a size no tier holds says the least again
    expect(priceWords({ unit: 'output-size', tiers }, { width: 1024, height: 1024 })).toBe(
      '$0.004 per image',
    );
    expect(priceWords({ unit: 'output-size', tiers }, { width: 2048, height: 1024 })).toBe(
      '$0.002 per image',
    );
    const capped = [{ maxMegapixels: 1, micros: 4000 }];
    expect(priceWords({ unit: 'output-size', tiers: capped }, { width: 2048, height: 2048 })).toBe(
      'from $0.004 per image',
    );
  });
});

describe('formatUsd', () => {
  it.each([
    [500, '$0.0005'],
    [10_000, '$0.01'],
    [15_500, '$0.0155'],
    [25_000, '$0.025'],
    [1_000_000, '$1.00'],
    [0, '$0.00'],
  ])('formats %d micros as %s', (micros, text) => {
    expect(formatUsd(micros)).toBe(text);
  });
});
