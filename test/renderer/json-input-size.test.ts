/**
 * The size cap of a draft's input as the "Other" tab's JSON editor checks it while the user
 * types: the same rule and words as main (src/shared/catalog/draft-input-size.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildDraft, emptyForms } from '../../src/renderer/src/features/compose/compose-model.ts';
import { checkJsonObject } from '../../src/renderer/src/model/json-input.ts';
import { DRAFT_INPUT_MAX_BYTES, draftInputBytes } from '../../src/shared/index.ts';

const IMAGE_GEN = { model: 'image-gen', taskType: 'txt2img' };
const IMAGE_UPSCALE = { model: 'image-toolkit', taskType: 'upscale' };

const big = (chars: number) => JSON.stringify({ prompt: 'a castle', notes: 'x'.repeat(chars) });

describe('the JSON editor refuses an input larger than the cap', () => {
  it('accepts an input just under 1 MB and refuses one just over, naming its size and the cap', () => {
    const under = big(DRAFT_INPUT_MAX_BYTES - 100);
    expect(checkJsonObject(under, IMAGE_GEN).ok).toBe(true);
    const over = checkJsonObject(big(1_200_000), IMAGE_GEN);
    expect(over.ok).toBe(false);
    if (over.ok) return;
    expect(over.message).toBe(
      'Input is 1.2 MB of JSON text (1,200,032 bytes); the limit is 1 MB (1,000,000 bytes), media fields not counted',
    );
    expect(over.line).toBeNull();
  });

  it('refuses 100 MB as it is typed, without anything else failing first', () => {
    const text = big(100_000_000);
    const check = checkJsonObject(text, IMAGE_GEN);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/^Input is 100 MB of JSON text .*the limit is 1 MB/);
  });

  it('counts characters as UTF-8 bytes', () => {
    // 400,000 three-byte characters: 1.2 MB, though only 400,000 characters
    const check = checkJsonObject(JSON.stringify({ prompt: '€'.repeat(400_000) }), IMAGE_GEN);
    expect(check.ok).toBe(false);
    expect(draftInputBytes({ prompt: '😀' }, IMAGE_GEN)).toBe(JSON.stringify({ prompt: '' }).length + 4);
  });

  it('does not count a media field holding Base64 (it has its own cap in main)', () => {
    const base64 = 'A'.repeat(2_000_000);
    expect(checkJsonObject(JSON.stringify({ image: base64, scale: 2 }), IMAGE_UPSCALE).ok).toBe(true);
    // the same text under a field that is not media is counted
    expect(checkJsonObject(JSON.stringify({ image: base64, scale: 2 }), IMAGE_GEN).ok).toBe(false);
  });

  it('stops the Other tab from building a draft, with the message on the input field', () => {
    const forms = emptyForms();
    forms.other = { model: 'image-gen', taskType: 'txt2img', modelId: '', json: big(1_500_000) };
    const built = buildDraft('other', forms);
    expect(built).toMatchObject({ ok: false, field: 'input' });
    if (!built.ok) expect(built.message).toMatch(/^Input is 1\.5 MB of JSON text/);
  });
});
