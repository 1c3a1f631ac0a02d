import { describe, expect, it } from 'vitest';
import { generateSongWav, SONG_SAMPLE_RATE } from '../../../src/sandbox/media/index.ts';
import { parseLyrics } from '../../../src/sandbox/media/lyrics-parse.ts';
import { readWavInfo } from '../../support/wav-info.ts';

const LYRICS = `[verse]
Walking down the empty street
Counting every heartbeat
[chorus]
Oh the night is ours tonight
[inst]
[bridge]
Quiet now, the city sleeps`;

function song(overrides: Partial<Parameters<typeof generateSongWav>[0]> = {}): Buffer {
  return generateSongWav({
    stylePrompt: 'upbeat pop, piano',
    lyrics: LYRICS,
    durationSeconds: 12,
    ...overrides,
  });
}

function samplesOf(wav: Buffer): Int16Array {
  const copy = Buffer.from(wav.subarray(44));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

function windowRms(samples: Int16Array, start: number, length: number): number {
  let sum = 0;
  for (let i = start; i < start + length; i++) sum += (samples[i]! / 32768) ** 2;
  return Math.sqrt(sum / length);
}

describe('generateSongWav', () => {
  it.each([1, 7.5, 0.5, 12.345, 30])('holds exactly round(%s s x rate) samples', (seconds) => {
    const wav = song({ durationSeconds: seconds });
    const expected = Math.round(seconds * SONG_SAMPLE_RATE);
    expect(wav.readUInt32LE(40)).toBe(expected * 2);
    expect(wav.length).toBe(44 + expected * 2);
    expect(wav.readUInt32LE(4)).toBe(36 + expected * 2);
    const info = readWavInfo(wav);
    expect(info).toMatchObject({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
    expect(info.durationSeconds).toBeCloseTo(expected / SONG_SAMPLE_RATE, 9);
  });

  it('is loud throughout: overall RMS well above silence and no silent quarter second', () => {
    const wav = song({ durationSeconds: 20 });
    expect(readWavInfo(wav).rms).toBeGreaterThan(0.05);
    const samples = samplesOf(wav);
    const quarter = Math.floor(SONG_SAMPLE_RATE / 4);
    // The last half second fades out; every earlier quarter second must carry sound.
    for (let start = 0; start + quarter <= samples.length - SONG_SAMPLE_RATE / 2; start += quarter) {
      expect(windowRms(samples, start, quarter)).toBeGreaterThan(0.01);
    }
  });

  it('is deterministic and depends on style, lyrics, sections, negative prompt and seed text', () => {
    const base = song();
    expect(song().equals(base)).toBe(true);
    const variants = [
      song({ stylePrompt: 'dark metal, guitar' }),
      song({ lyrics: 'A different line of words\nAnd another one' }),
      song({ lyrics: LYRICS.replace('[chorus]', '[verse]') }),
      song({ negativePrompt: 'no drums' }),
      song({ seedText: 'task-2' }),
      song({ lyrics: '' }),
    ];
    for (const variant of variants) {
      expect(variant.length).toBe(base.length);
      expect(variant.equals(base)).toBe(false);
    }
  });

  it('generates a 240 s song quickly', () => {
    song({ durationSeconds: 5 });
    const started = performance.now();
    const wav = song({ durationSeconds: 240 });
    const elapsed = performance.now() - started;
    expect(readWavInfo(wav).durationSeconds).toBe(240);
    expect(elapsed).toBeLessThan(1000);
  });

  it('refuses a duration that is not a positive number', () => {
    for (const durationSeconds of [0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => song({ durationSeconds })).toThrow(RangeError);
    }
  });
});

describe('parseLyrics', () => {
  it('reads sections, drops timestamps and splits syllables', () => {
    const lines = parseLyrics(
      '[Verse 1]\n[00:12.50] Hello world\n[Chorus] sing it\n\n[inst]\n[bridge]\n你好',
    );
    expect(lines).toEqual([
      { section: 'verse', syllables: ['He', 'llo', 'world'], text: 'Hello world' },
      { section: 'chorus', syllables: ['sing', 'it'], text: 'sing it' },
      { section: 'inst', syllables: [], text: '' },
      { section: 'bridge', syllables: ['你', '好'], text: '你好' },
    ]);
  });
});
