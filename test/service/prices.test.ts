import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimateCost, formatUsd, MODELS } from '../../src/shared/index.ts';

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
