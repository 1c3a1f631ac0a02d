/**
 * Queue's question before a task without a known price (unknown-price.ts): asked outside demo
 * mode, never in demo mode (nothing is billed), nor for a task type the user said not to ask
 * about again; a batch is asked about by its first draft that still needs the question.
 */
import { describe, expect, it } from 'vitest';
import { unknownPriceToAsk } from '../../src/renderer/src/features/compose/unknown-price.ts';

const upscale = {
  model: 'image-toolkit',
  taskType: 'upscale',
  input: { image: 'https://example.test/a.png' },
};
const song = { model: 'ace-step', taskType: 'txt2audio', input: { style_prompt: 'harp', duration: 10 } };
const paid = (accepted: string[] = []) => ({ demoLibrary: false, unknownPriceAccepted: accepted });

describe('the unknown-price question', () => {
  it('asks about a task type without a published price, naming it', () => {
    expect(unknownPriceToAsk([upscale], paid())).toEqual({
      entryId: 'image-toolkit/upscale',
      label: 'Image upscale',
      message:
        'The service publishes no price for Image upscale, so the app cannot say what it will cost or count it against a budget. Queue it anyway?',
    });
    expect(unknownPriceToAsk([song], paid())).toBeNull();
  });

  it('never asks in demo mode, nor for a task type the user said not to ask about again', () => {
    expect(unknownPriceToAsk([upscale], { demoLibrary: true, unknownPriceAccepted: [] })).toBeNull();
    expect(unknownPriceToAsk([upscale, upscale], paid(['image-toolkit/upscale']))).toBeNull();
    // another type in the batch still asks, about itself
    const faceOnVideo = {
      model: 'video-toolkit',
      taskType: 'face-swap',
      input: { target_video: 'https://example.test/a.mp4', swap_image: 'https://example.test/f.png' },
    };
    expect(unknownPriceToAsk([upscale, faceOnVideo], paid(['image-toolkit/upscale']))?.entryId).toBe(
      'video-toolkit/face-swap',
    );
  });
});
