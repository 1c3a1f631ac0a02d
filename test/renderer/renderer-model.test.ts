import { describe, expect, it } from 'vitest';
import { compareCheck, songSwitchHint } from '../../src/renderer/src/features/compare/compare-state.ts';
import {
  PEAK_BARS,
  peaksFromText,
  peaksOf,
  peaksText,
  songHue,
} from '../../src/renderer/src/features/library/song-peaks.ts';
import { gridLayout, rangeBetween, rowCount, rowItems } from '../../src/renderer/src/model/grid-layout.ts';
import { checkJsonObject, lineColumnAt } from '../../src/renderer/src/model/json-input.ts';
import {
  fileNameOf,
  libraryRelativePath,
  mediaUrl,
  urlExtension,
} from '../../src/renderer/src/model/media-url.ts';
import {
  budgetInputText,
  budgetShare,
  costLine,
  parseBudgetDollars,
  usdOrDash,
} from '../../src/renderer/src/model/money-text.ts';
import {
  displayParameter,
  parameterRows,
  shortenValue,
} from '../../src/renderer/src/model/parameter-display.ts';
import {
  formatAgo,
  formatClock,
  formatDuration,
  msBetween,
} from '../../src/renderer/src/model/time-format.ts';
import { comparedTitles, variationWords } from '../../src/renderer/src/model/variation-words.ts';
import { entryById } from '../../src/shared/index.ts';
import { loadedTask } from './loaded-task.ts';

describe('json input', () => {
  it('accepts an object', () => {
    expect(checkJsonObject('{"prompt": "a cat"}')).toEqual({ ok: true, value: { prompt: 'a cat' } });
  });

  it('reports where a parse error is, by line and column', () => {
    const text = '{\n  "a": 1,\n  "b": }';
    const result = checkJsonObject(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.line).toBe(3);
    expect(result.column).toBe(8);
    expect(result.message).toMatch(/^Line 3, column 8: /);
  });

  it('reports a truncated text at its end', () => {
    const result = checkJsonObject('{"a": [1, 2');
    expect(result).toMatchObject({ ok: false, line: 1, column: 12 });
  });

  it('refuses arrays, null, scalars and empty text', () => {
    expect(checkJsonObject('[1]')).toMatchObject({ ok: false, message: expect.stringContaining('an array') });
    expect(checkJsonObject('null')).toMatchObject({ ok: false, message: expect.stringContaining('null') });
    expect(checkJsonObject('3')).toMatchObject({ ok: false, message: expect.stringContaining('a number') });
    expect(checkJsonObject('  ')).toMatchObject({ ok: false, line: null });
  });

  it('explains common mistakes in plain words', () => {
    expect(checkJsonObject('{"a": 1,}')).toMatchObject({
      ok: false,
      column: 9,
      message: expect.stringContaining('comma'),
    });
    expect(checkJsonObject("{'a': 1}")).toMatchObject({
      ok: false,
      column: 2,
      message: expect.stringContaining('double quotes'),
    });
    expect(checkJsonObject('{"a": "x}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('not closed'),
    });
    expect(checkJsonObject('{"a": 1} x')).toMatchObject({ ok: false, column: 10 });
  });

  it('maps offsets to lines and columns', () => {
    expect(lineColumnAt('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('grid layout', () => {
  it('fits as many columns as the width allows', () => {
    expect(gridLayout(1000, { minCardWidth: 184, gap: 16, captionHeight: 64 })).toEqual({
      columns: 5,
      cardWidth: 187,
      rowHeight: 187 + 64 + 16,
    });
    expect(gridLayout(100).columns).toBe(1);
    expect(gridLayout(0).columns).toBe(1);
    expect(gridLayout(100_000).columns).toBe(12);
  });

  it('counts rows and the items of a row', () => {
    expect(rowCount(0, 4)).toBe(0);
    expect(rowCount(9, 4)).toBe(3);
    expect(rowItems(2, 4, 9)).toEqual([8, 9]);
    expect(rowItems(0, 4, 9)).toEqual([0, 4]);
  });

  it('selects a range either way', () => {
    const ids = ['a', 'b', 'c', 'd'];
    expect(rangeBetween(ids, 'b', 'd')).toEqual(['b', 'c', 'd']);
    expect(rangeBetween(ids, 'd', 'b')).toEqual(['b', 'c', 'd']);
    expect(rangeBetween(ids, 'x', 'c')).toEqual(['c']);
  });
});

describe('money text', () => {
  it('prices a song live from its duration', () => {
    expect(costLine('service/ace-step', 'txt2audio', { duration: 30 })).toEqual({
      amount: '$0.015',
      detail: '30 s x $0.0005/s',
    });
    expect(costLine('service/image-gen', 'txt2img', {}).amount).toBeNull();
    expect(usdOrDash(null)).toBe('—');
  });

  it('parses budgets in dollars to micro-dollars', () => {
    expect(parseBudgetDollars('')).toEqual({ ok: true, micros: null });
    expect(parseBudgetDollars('$12.50')).toEqual({ ok: true, micros: 12_500_000 });
    expect(parseBudgetDollars('1,000')).toEqual({ ok: true, micros: 1_000_000_000 });
    expect(parseBudgetDollars('0.000001')).toEqual({ ok: true, micros: 1 });
    expect(parseBudgetDollars('ten').ok).toBe(false);
    expect(parseBudgetDollars('-5').ok).toBe(false);
  });

  it('shows budgets back in dollars and shares of them', () => {
    expect(budgetInputText(12_500_000)).toBe('12.5');
    expect(budgetInputText(3_000_000)).toBe('3');
    expect(budgetInputText(null)).toBe('');
    expect(budgetShare(5, 10)).toBe(0.5);
    expect(budgetShare(50, 10)).toBe(1);
    expect(budgetShare(5, null)).toBeNull();
  });
});

describe('media urls', () => {
  it('joins the base and an encoded relative path', () => {
    expect(mediaUrl('studio-media://library/', 'tasks/a b/output-1.png')).toBe(
      'studio-media://library/tasks/a%20b/output-1.png',
    );
    expect(mediaUrl('http://127.0.0.1:9/library/', 'x\\y.wav')).toBe('http://127.0.0.1:9/library/x/y.wav');
  });

  it('finds the library-relative part of a path', () => {
    expect(libraryRelativePath('/home/u/Lib/inputs/1/a.png', '/home/u/Lib')).toBe('inputs/1/a.png');
    expect(libraryRelativePath('/home/u/Library2/a.png', '/home/u/Lib')).toBeNull();
    expect(libraryRelativePath('C:\\Users\\u\\Lib\\inputs\\a.png', 'c:\\users\\u\\lib')).toBe('inputs/a.png');
    expect(libraryRelativePath('/home/u/Lib/../x.png', '/home/u/Lib')).toBeNull();
  });

  it('names files and extensions', () => {
    expect(fileNameOf('/tmp/dir/photo.png')).toBe('photo.png');
    expect(fileNameOf('https://x.test/a/b%20c.jpg?x=1')).toBe('b c.jpg');
    expect(urlExtension('https://x.test/a.GIF?x=1')).toBe('.gif');
    expect(urlExtension('https://x.test/a')).toBe('');
  });
});

describe('parameter display', () => {
  it('shortens Base64 and data URIs', () => {
    const b64 = 'A'.repeat(4000);
    expect(shortenValue(b64)).toMatch(/^A{16}… \(3 KB Base64\)$/);
    expect(shortenValue(`data:image/png;base64,${b64}`)).toMatch(
      /^data:image\/png;base64,A{12}… \(3 KB Base64\)$/,
    );
    expect(shortenValue('a short prompt')).toBe('a short prompt');
  });

  it('shows library files and other values', () => {
    expect(displayParameter({ $file: 'inputs/1/a.png' })).toBe('library file inputs/1/a.png');
    expect(displayParameter(30)).toBe('30');
    expect(displayParameter(true)).toBe('true');
    expect(displayParameter({ nested: 'B'.repeat(400) })).toContain('Base64');
  });

  it("names a parameter by its catalog field's words, else by its input name", () => {
    const fields = entryById('qwen-image/image-edit')!.input.fields;
    expect(parameterRows({ flow_shift: 2.5, custom_key: 'x' }, fields)).toEqual([
      { name: 'flow_shift', label: 'Flow shift', value: '2.5' },
      { name: 'custom_key', label: 'custom_key', value: 'x' },
    ]);
  });
});

describe('time format', () => {
  it('formats durations and clocks', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
    expect(formatDuration(3_780_000)).toBe('1 h 03 min');
    expect(formatDuration(-5)).toBe('0 s');
    expect(formatClock(7.9)).toBe('0:07');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(Number.NaN)).toBe('0:00');
  });

  it('measures between ISO times and says how long ago', () => {
    expect(msBetween('2025-01-01T00:00:00Z', '2025-01-01T00:01:00Z')).toBe(60_000);
    expect(msBetween(null, '2025-01-01T00:01:00Z')).toBeNull();
    const now = Date.parse('2025-01-01T12:00:00Z');
    expect(formatAgo('2025-01-01T11:59:50Z', now)).toBe('just now');
    expect(formatAgo('2025-01-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatAgo('2024-12-29T12:00:00Z', now)).toBe('3 days ago');
  });
});

describe('previews under the CSP', () => {
  it('allows library media, files, data and the own origin only', async () => {
    const { previewAllowed } = await import('../../src/renderer/src/model/media-url.ts');
    expect(previewAllowed('blob:http://x/1', 'http://127.0.0.1:5')).toBe(true);
    expect(previewAllowed('data:image/png;base64,AAAA', 'null')).toBe(true);
    expect(previewAllowed('studio-media://library/a.png', 'null')).toBe(true);
    expect(previewAllowed('http://127.0.0.1:5/library/a.png', 'http://127.0.0.1:5')).toBe(true);
    expect(previewAllowed('https://x.test/a.png', 'http://127.0.0.1:5')).toBe(false);
    expect(previewAllowed('not a url', 'http://127.0.0.1:5')).toBe(false);
  });
});

describe('errors from the bridge', () => {
  it('rebuilds kind, field and message from every shape a failed call may throw', async () => {
    const { toStudioError } = await import('../../src/renderer/src/model/studio-error.ts');
    const harness = Object.assign(new Error('prompt: describe the edit'), {
      kind: 'invalid-input',
      field: 'prompt',
    });
    expect(toStudioError(harness)).toMatchObject({
      kind: 'invalid-input',
      field: 'prompt',
      message: 'prompt: describe the edit',
    });
    const preload = new Error(JSON.stringify({ kind: 'budget', message: 'over budget', field: null }));
    expect(toStudioError(preload)).toMatchObject({ kind: 'budget', field: null, message: 'over budget' });
    const electron = new Error(
      `Error invoking remote method 'studio:tasks.queue': Error: ${JSON.stringify({ kind: 'weak-storage', message: 'no keyring', field: 'key' })}`,
    );
    expect(toStudioError(electron)).toMatchObject({
      kind: 'weak-storage',
      field: 'key',
      message: 'no keyring',
    });
    expect(toStudioError(new Error('boom'))).toMatchObject({
      kind: 'internal',
      message: 'boom',
      field: null,
    });
    expect(toStudioError('text')).toMatchObject({ kind: 'internal', message: 'text' });
  });
});

describe('song cards told apart (issue 21, item 10)', () => {
  it('peaks: the loudest point of each slice, scaled to the loudest, kept as two digits a bar', () => {
    const samples = Array.from({ length: 3200 }, (_, i) => (i < 1600 ? 0.1 : -0.8) * Math.sin(i));
    const peaks = peaksOf(samples);
    expect(peaks).toHaveLength(PEAK_BARS);
    expect(Math.max(...peaks)).toBe(1);
    expect(peaks[0]).toBeLessThan(0.2); // the quiet half stays low
    expect(peaksFromText(peaksText(peaks))).toEqual(peaks);
    expect(peaksFromText('12')).toBeNull();
    expect(peaksFromText(null)).toBeNull();
    expect(peaksOf(new Float32Array(64))).toEqual(Array(PEAK_BARS).fill(0));
  });

  it('a song has a colour of its own, the same every time', () => {
    expect(songHue('a')).toBe(songHue('a'));
    const hues = new Set(['song-1', 'song-2', 'song-3', 'song-4'].map(songHue));
    expect(hues.size).toBe(4);
    for (const hue of hues) expect(hue).toBeGreaterThanOrEqual(0);
  });

  it("a batch's card says its place and its seed", () => {
    const request = (input: Record<string, unknown>) => ({ model: 'm', task_type: 't', input });
    expect(variationWords({ batchPlace: { index: 2, count: 4 }, request: request({ seed: 1001 }) })).toBe(
      '2 of 4 · seed 1001',
    );
    expect(variationWords({ batchPlace: { index: 1, count: 1 }, request: request({}) })).toBeNull();
    expect(variationWords({ request: request({ seed: 7 }) })).toBe('seed 7');
  });

  it('results compared under one title are told apart by their place and seed, else by number', () => {
    const request = (input: Record<string, unknown>) => ({ model: 'm', task_type: 't', input });
    const variation = (index: number) => ({
      title: 'Harbour at dusk',
      batchPlace: { index, count: 3 },
      request: request({ seed: 1000 + index }),
    });
    expect(comparedTitles([variation(1), variation(3)])).toEqual([
      'Harbour at dusk (1 of 3 · seed 1001)',
      'Harbour at dusk (3 of 3 · seed 1003)',
    ]);
    const plain = (title: string) => ({ title, request: request({}) });
    expect(comparedTitles([plain('Red kite'), plain('Blue kite')])).toEqual(['Red kite', 'Blue kite']);
    expect(comparedTitles([plain('Kite'), plain('Owl'), plain('Kite')])).toEqual([
      'Kite (1)',
      'Owl',
      'Kite (2)',
    ]);
  });
});

describe("Compare's words", () => {
  const saved = (title: string, kind: 'image' | '3d' | 'video' | 'file', path: string) =>
    loadedTask({
      id: title,
      title,
      state: 'saved',
      outputs: [
        {
          index: 0,
          kind,
          url: 'https://x.test/o',
          field: 'f',
          state: 'saved',
          path,
          thumbPath: null,
          mime: null,
          size: 1000,
          sha256: null,
          width: 64,
          height: 64,
          durationSeconds: null,
          error: null,
        },
      ],
    });

  it('names each kind it is given: a 3D model is a 3D model, never "other files"', () => {
    const kite = saved('Red kite', 'image', 'a/output-1.png');
    const cube = saved('A cube', '3d', 'b/output-1.glb');
    const clip = saved('Waves', 'video', 'c/output-1.mp4');
    const blob = saved('Blob', 'file', 'd/output-1.bin');
    expect(compareCheck(2, false, [cube, kite])).toEqual({
      ok: false,
      why: 'Compare results of one kind: these are 3D models and pictures',
    });
    expect(compareCheck(2, false, [cube, clip])).toMatchObject({
      why: expect.stringMatching(/3D models and videos$/),
    });
    expect(compareCheck(2, false, [blob, kite])).toMatchObject({
      why: expect.stringMatching(/other files and pictures$/),
    });
  });

  it("the song switch's hint names every song's letter", () => {
    expect(songSwitchHint(2)).toBe('Choose A or B: the other starts where this one is.');
    expect(songSwitchHint(3)).toBe('Choose A, B or C: the others start where this one is.');
    expect(songSwitchHint(4)).toBe('Choose A, B, C or D: the others start where this one is.');
  });
});

describe('Settings › Retention follows the rules as kept (issue 22 leftovers, item 1)', () => {
  it('shows the rules changed elsewhere unless the user is editing them, then keeps the edit', async () => {
    const { draftEdited, draftOf, draftRules, followKept, keptChanged } = await import(
      '../../src/renderer/src/features/settings/retention-draft.ts'
    );
    const { DEFAULT_RETENTION_RULES } = await import('../../src/shared/task/retention.ts');
    const at90 = { ...DEFAULT_RETENTION_RULES, keepKinds: [] };
    const at40 = { ...at90, enabled: true, olderThanDays: 40 };
    // not edited: the field shows the rules as kept now (it kept "90" while they were 40)
    const shown = followKept(draftOf(at90), at40);
    expect(shown.daysText).toBe('40');
    expect(draftRules(shown)).toEqual(at40);
    expect(draftEdited(shown)).toBe(false);
    // edited: the user's days and boxes stay, and the draft still knows what it started from
    const typing = { ...draftOf(at90), daysText: '30', rules: { ...at90, keepBoards: false } };
    const kept = followKept(typing, at40);
    expect(kept).toEqual(typing);
    expect(keptChanged(kept, at40)).toBe(true);
    expect(keptChanged(kept, { ...at90, enabled: true })).toBe(false);
    // edited to what is kept now: no edit any more
    expect(draftEdited(followKept({ ...typing, daysText: '40', rules: at90 }, at40))).toBe(false);
    // an edit undone by hand is no edit: it follows again
    expect(followKept({ ...draftOf(at90), daysText: '90' }, at40).daysText).toBe('40');
    // switched off elsewhere only: the days and boxes are the same, nothing to follow but on/off
    expect(draftEdited(followKept(draftOf(at40), { ...at40, enabled: false }))).toBe(false);
  });
});
