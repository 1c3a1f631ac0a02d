import { describe, expect, it } from 'vitest';
import {
  expandAlternatives,
  expandTexts,
  PROMPT_LIST_MAX,
  promptLines,
} from '../../src/shared/compose/prompt-list.ts';

const texts = (text: string) => {
  const got = expandAlternatives(text);
  if (!got.ok) throw new Error(got.message);
  return got.texts;
};
const refusal = (text: string) => {
  const got = expandAlternatives(text);
  if (got.ok) throw new Error(`expanded: ${JSON.stringify(got.texts)}`);
  return got.message;
};

describe('prompt lists', () => {
  it('makes one text per alternative, and several groups multiply, the first changing slowest', () => {
    expect(texts('a city at {dawn|noon|dusk}')).toEqual([
      'a city at dawn',
      'a city at noon',
      'a city at dusk',
    ]);
    expect(texts('{red|blue} {car|boat}')).toEqual(['red car', 'red boat', 'blue car', 'blue boat']);
    expect(texts('no groups here')).toEqual(['no groups here']);
  });

  it('reads \\{ \\} \\| as the characters themselves, and leaves braces without a bar as written', () => {
    expect(texts('\\{dawn\\|noon\\} at {a|b}')).toEqual(['{dawn|noon} at a', '{dawn|noon} at b']);
    expect(texts('{a\\|b|c}')).toEqual(['a|b', 'c']);
    expect(texts('hello {name}, :} a | b {')).toEqual(['hello {name}, :} a | b {']);
    expect(texts('C:\\path\\x')).toEqual(['C:\\path\\x']);
  });

  it('takes an empty alternative as nothing, but refuses a group of empty ones', () => {
    expect(texts('a {red |}car')).toEqual(['a red car', 'a car']);
    expect(refusal('a {|} car')).toMatch(/only empty alternatives/);
  });

  it('refuses nested braces and an open group, saying where and how to write a brace', () => {
    expect(refusal('{a|{b|c}}')).toBe(
      'braces inside braces at character 4: alternatives cannot be nested (write \\{ for a brace in the text)',
    );
    expect(refusal('a {b|c')).toMatch(/^the \{ at character 3 is not closed: end its alternatives with \}/);
  });

  it('refuses more than the limit without building every text', () => {
    const many = '{a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j}';
    // the count is said as a number, whatever made it (review of issue 22, item 8)
    expect(refusal(many)).toBe(
      `this makes 1,000 tasks; at most ${PROMPT_LIST_MAX} can be queued at once (use fewer alternatives or lines)`,
    );
    expect(expandAlternatives('{a|b|c|d|e|f|g|h|i|j} {a|b|c|d|e|f|g|h|i|j}').ok).toBe(true);
  });

  it('reads a list one prompt per line, blank lines left out, each line with its alternatives', () => {
    expect(promptLines('  one \n\n two\r\nthree  \n')).toEqual(['one', 'two', 'three']);
    const got = expandTexts(
      { prompt: 'a cat\na {dog|fox}\n', negative_prompt: '{blur|noise}' },
      { linesField: 'prompt' },
    );
    expect(got).toEqual({
      ok: true,
      variants: [
        { prompt: 'a cat', negative_prompt: 'blur' },
        { prompt: 'a cat', negative_prompt: 'noise' },
        { prompt: 'a dog', negative_prompt: 'blur' },
        { prompt: 'a dog', negative_prompt: 'noise' },
        { prompt: 'a fox', negative_prompt: 'blur' },
        { prompt: 'a fox', negative_prompt: 'noise' },
      ],
    });
  });

  it('names the field of a refusal, counts across fields, and refuses an empty list', () => {
    expect(expandTexts({ prompt: '\n \n' }, { linesField: 'prompt' })).toEqual({
      ok: false,
      field: 'prompt',
      message: 'the list of prompts is empty: write one prompt per line',
    });
    const lines = Array.from({ length: 40 }, (_, i) => `prompt ${i}`).join('\n');
    expect(expandTexts({ prompt: lines, style: '{a|b|c}' }, { linesField: 'prompt' })).toEqual({
      ok: false,
      field: 'style',
      message: `this makes 120 tasks; at most ${PROMPT_LIST_MAX} can be queued at once (use fewer alternatives or lines)`,
    });
    expect(expandTexts({ prompt: 'x {a|b', style: 'y' })).toMatchObject({ ok: false, field: 'prompt' });
    // a refusal names the text it is in, and the line of a list (the window's field says it)
    const names = { prompt: 'the prompt', negative_prompt: 'the negative prompt' };
    expect(expandTexts({ prompt: 'ok', negative_prompt: '{blur|noise' }, { names })).toEqual({
      ok: false,
      field: 'negative_prompt',
      message:
        'the { at character 1 of the negative prompt is not closed: end its alternatives with } (or write \\{ for a brace in the text)',
    });
    expect(expandTexts({ prompt: 'a cat\n\nx {a|{b|c}}' }, { linesField: 'prompt', names })).toMatchObject({
      message: expect.stringMatching(/^braces inside braces at character 6 of line 3 of the prompt: /),
    });
  });
});
