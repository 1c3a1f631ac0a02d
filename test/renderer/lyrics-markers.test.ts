import { describe, expect, it } from 'vitest';
import { buildDraft, emptyForms } from '../../src/renderer/src/features/compose/compose-model.ts';
import { formProblems } from '../../src/renderer/src/features/compose/compose-problems.ts';
import {
  findLyricsProblems,
  insertMarker,
  segmentLyrics,
} from '../../src/renderer/src/features/compose/lyrics-markers.ts';
import { commonTagMarker, lyricsTagChangeWords, mapLyricsTags } from '../../src/shared/index.ts';

describe('findLyricsProblems', () => {
  it('accepts well-formed lyrics with markers on their own lines and timestamps', () => {
    const lyrics =
      '[verse]\nWalking down the road\n[00:12.50]with timing\n\n[Chorus]\nLa la\n[inst]\n[bridge]\nend';
    expect(findLyricsProblems(lyrics)).toEqual([]);
  });

  it('flags an unknown marker with its line and column', () => {
    const problems = findLyricsProblems('[verse]\nhello\n  [xyz]\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ kind: 'unknown', line: 3, column: 3, text: '[xyz]' });
    expect(problems[0]?.message).toContain('Line 3');
    expect(problems[0]?.message).toContain('[xyz]');
  });

  it('flags an unclosed marker', () => {
    const problems = findLyricsProblems('line one\n[verse\nwords');
    expect(problems).toEqual([expect.objectContaining({ kind: 'unclosed', line: 2, text: '[verse' })]);
  });

  it('flags an unclosed marker followed by another bracket on the same line', () => {
    const problems = findLyricsProblems('[verse [chorus]');
    expect(problems.map((p) => p.kind)).toEqual(['unclosed', 'not-alone']);
  });

  it('flags a marker that shares its line with words', () => {
    const problems = findLyricsProblems('[chorus] sing along\n');
    expect(problems).toEqual([expect.objectContaining({ kind: 'not-alone', line: 1 })]);
    expect(problems[0]?.message).toContain('own line');
  });

  it('flags two markers on one line and a stray closing bracket', () => {
    expect(findLyricsProblems('[verse][chorus]').map((p) => p.kind)).toEqual(['not-alone', 'not-alone']);
    expect(findLyricsProblems('oops]').map((p) => p.kind)).toEqual(['stray-close']);
  });
});

describe('segmentLyrics', () => {
  it('gives back the text exactly when joined', () => {
    const lyrics = '[verse]\nhello [xyz] there\n[chorus\n[00:01]la\n';
    expect(
      segmentLyrics(lyrics)
        .map((s) => s.text)
        .join(''),
    ).toBe(lyrics);
  });

  it('marks known markers, timestamps, problems and (a tag sent as written) warnings, each at its place', () => {
    const kinds = segmentLyrics('[verse]\n[00:01]la\n[xyz]\n[chorus').filter((s) => s.kind !== 'text');
    expect(kinds).toEqual([
      { kind: 'marker', text: '[verse]', marker: 'verse' },
      { kind: 'timestamp', text: '[00:01]' },
      { kind: 'warning', text: '[xyz]', place: '3:1' },
      { kind: 'problem', text: '[chorus', place: '4:1' },
    ]);
  });
});

describe('insertMarker', () => {
  it('inserts on its own line in the middle of a line', () => {
    const edit = insertMarker('hello world', 5, 5, 'chorus');
    expect(edit.text).toBe('hello\n[chorus]\n world');
    expect(edit.caret).toBe('hello\n[chorus]\n'.length);
    expect(findLyricsProblems(edit.text)).toEqual([]);
  });

  it('inserts at the start of a line without an extra blank line', () => {
    const edit = insertMarker('a\nb', 2, 2, 'verse');
    expect(edit.text).toBe('a\n[verse]\nb');
  });

  it('replaces a selection and handles an empty text', () => {
    expect(insertMarker('', 0, 0, 'inst')).toEqual({ text: '[inst]\n', caret: 7 });
    expect(insertMarker('abcXYZ', 3, 6, 'bridge').text).toBe('abc\n[bridge]\n');
  });
});

describe('prompt edits', () => {
  it('appends quick styles with commas', async () => {
    const { appendStyle } = await import('../../src/renderer/src/features/compose/prompt-edits.ts');
    expect(appendStyle('', 'jazz')).toBe('jazz');
    expect(appendStyle('lo-fi  ', 'jazz')).toBe('lo-fi, jazz');
    expect(appendStyle('lo-fi,', 'jazz')).toBe('lo-fi, jazz');
  });

  it('inserts an image name at the caret with spaces', async () => {
    const { insertWord } = await import('../../src/renderer/src/features/compose/prompt-edits.ts');
    // at the end no space after it: the user types their own (issue 21 item 11: no double spaces)
    expect(insertWord('', 0, 0, 'image1')).toEqual({ text: 'image1', caret: 6 });
    expect(insertWord('image1', 6, 6, 'image2')).toEqual({ text: 'image1 image2', caret: 13 });
    expect(insertWord('from ', 5, 5, 'image2')).toEqual({ text: 'from image2', caret: 11 });
    expect(insertWord('put the hat on', 7, 7, 'image2')).toEqual({
      text: 'put the image2 hat on',
      caret: 15,
    });
    expect(insertWord('use  now', 4, 4, 'image3').text).toBe('use image3 now');
  });
});

describe('lyrics pasted from Suno or a chat assistant', () => {
  const pasted =
    '[Intro]\n[Verse 1]\nCity lights\n[Pre-Chorus]\nHold on\n[CHORUS x2]\nLa la\n[Guitar Solo]\n[Outro]';

  it('maps the common tags to the service markers, case and numbers aside, and says what changed', () => {
    expect(findLyricsProblems(pasted)).toEqual([]);
    const { text, changes } = mapLyricsTags(pasted);
    expect(text).toBe('[inst]\n[verse]\nCity lights\n[verse]\nHold on\n[chorus]\nLa la\n[inst]\n[inst]');
    expect(lyricsTagChangeWords(changes)).toBe(
      '[Intro] → [inst], [Verse 1] → [verse], [Pre-Chorus] → [verse], [CHORUS x2] → [chorus], [Guitar Solo] → [inst], [Outro] → [inst]',
    );
    for (const [tag, marker] of [
      ['Hook', 'chorus'],
      ['Refrain', 'chorus'],
      ['Post-Chorus', 'chorus'],
      ['Bridge 2', 'bridge'],
      ['Instrumental Break', 'inst'],
      ['verse', null],
      ['01:23', null],
      ['Male Vocal', null],
    ] as const) {
      expect([tag, commonTagMarker(tag)]).toEqual([tag, marker]);
    }
    expect(segmentLyrics('[Verse 1]\nla').filter((s) => s.kind !== 'text')).toEqual([
      { kind: 'marker', text: '[Verse 1]', marker: 'verse' },
    ]);
  });

  it('queues the song with the mapped markers; an unknown tag is a warning that never blocks Queue', () => {
    const forms = emptyForms();
    forms.song = { ...forms.song, stylePrompt: 'synth pop', lyrics: `${pasted}\n[Male Vocal]\nHey` };
    expect(formProblems('song', forms)).toEqual([]);
    const built = buildDraft('song', forms);
    expect(built.ok && built.draft.input.lyrics).toBe(
      '[inst]\n[verse]\nCity lights\n[verse]\nHold on\n[chorus]\nLa la\n[inst]\n[inst]\n[Male Vocal]\nHey',
    );
    const unknown = findLyricsProblems('[Male Vocal]\nHey');
    expect(unknown).toEqual([expect.objectContaining({ kind: 'unknown', blocking: false, line: 1 })]);
    // a malformed marker still blocks
    forms.song.lyrics = '[verse\nla';
    expect(formProblems('song', forms).map((p) => p.field)).toEqual(['lyrics-markers']);
  });
});
