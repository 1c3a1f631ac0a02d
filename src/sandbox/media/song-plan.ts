/** The score of a song: bars with a section, a chord and melody notes, from the lyrics and the style. */
import { type LyricLine, parseLyrics, type SectionKind } from './lyrics-parse.ts';
import { seededRandom } from './seeded-random.ts';
import type { SongStyle } from './song-style.ts';
import { hashParts, hashText } from './text-hash.ts';

/** Bars are divided into 16 steps (sixteenth notes in 4/4). */
export const STEPS_PER_BAR = 16;

export interface MelodyNote {
  /** Step within the bar where the note starts. */
  step: number;
  /** Length in steps (may run past the bar end). */
  steps: number;
  /** Scale degree relative to the tonic (7 = one octave up). */
  degree: number;
}

export interface Bar {
  section: SectionKind;
  /** Scale degree of the chord root. */
  chord: number;
  melody: MelodyNote[];
  /** Whether the melody is sung (lyrics) rather than played (instrumental arpeggio). */
  sung: boolean;
}

const PROGRESSIONS: Record<SectionKind, number[][]> = {
  verse: [
    [0, 5, 3, 4],
    [0, 3, 0, 4],
    [5, 3, 0, 4],
  ],
  chorus: [
    [3, 4, 0, 5],
    [0, 4, 5, 3],
    [0, 3, 4, 4],
  ],
  bridge: [
    [5, 3, 0, 4],
    [3, 5, 4, 4],
    [1, 4, 0, 5],
  ],
  inst: [
    [0, 3, 4, 0],
    [0, 5, 3, 4],
    [0, 4, 3, 4],
  ],
};

const SECTION_LIFT: Record<SectionKind, number> = { verse: 0, chorus: 2, bridge: -1, inst: 0 };
const MAX_BARS_PER_LINE = 4;

/** Enough bars to fill `seconds`: the lyrics (or a generated form), repeated with instrumental breaks. */
export function planSong(lyrics: string, style: SongStyle, seconds: number): Bar[] {
  const barSeconds = (60 / style.bpm) * 4;
  const needed = Math.ceil(seconds / barSeconds) + 1;
  const lines = parseLyrics(lyrics);
  const body = lines.length > 0 ? lyricBars(lines, style) : generatedBars(style);
  const bars = instrumentalBars(1, style, 0);
  for (let round = 1; bars.length < needed; round++) {
    bars.push(...body, ...instrumentalBars(2, style, round));
  }
  return bars.slice(0, needed);
}

function lyricBars(lines: LyricLine[], style: SongStyle): Bar[] {
  const bars: Bar[] = [];
  const barInSection = new Map<SectionKind, number>();
  for (const line of lines) {
    if (line.syllables.length === 0) {
      bars.push(...instrumentalBars(2, style, bars.length));
      continue;
    }
    const count = Math.min(MAX_BARS_PER_LINE, Math.max(1, Math.ceil(line.syllables.length / 7)));
    const notes = singLine(line, style, count);
    for (let b = 0; b < count; b++) {
      const index = barInSection.get(line.section) ?? 0;
      barInSection.set(line.section, index + 1);
      bars.push({
        section: line.section,
        chord: progression(line.section, style)[index % 4]!,
        melody: notes
          .filter((n) => Math.floor(n.step / STEPS_PER_BAR) === b)
          .map((n) => ({ ...n, step: n.step % STEPS_PER_BAR })),
        sung: true,
      });
    }
  }
  return bars;
}

/** One note per syllable: eighth notes, or sixteenths for a crowded line; the last syllable is held. */
function singLine(line: LyricLine, style: SongStyle, bars: number): MelodyNote[] {
  const total = bars * STEPS_PER_BAR;
  const syllables = line.syllables.slice(0, total - 2);
  const stride = syllables.length * 2 <= total - 2 ? 2 : 1;
  const lift = SECTION_LIFT[line.section];
  let degree = (hashParts(style.seed, line.text) % 5) + lift;
  return syllables.map((syllable, i) => {
    const last = i === syllables.length - 1;
    if (i > 0) degree = clampDegree(degree + contourStep(hashParts(style.seed, syllable, i)));
    const resolved = last ? nearestChordTone(degree) + lift : degree;
    return {
      step: i * stride,
      steps: last ? Math.max(stride, total - i * stride - 1) : stride,
      degree: resolved,
    };
  });
}

function contourStep(hash: number): number {
  return [-2, -1, -1, 0, 1, 1, 2, 3][hash % 8]!;
}

function clampDegree(degree: number): number {
  return Math.max(-3, Math.min(10, degree));
}

function nearestChordTone(degree: number): number {
  const inOctave = ((degree % 7) + 7) % 7;
  const base = degree - inOctave;
  const tone = [0, 2, 4, 7].reduce((best, t) =>
    Math.abs(t - inOctave) < Math.abs(best - inOctave) ? t : best,
  );
  return base + tone;
}

function progression(section: SectionKind, style: SongStyle): number[] {
  const sets = PROGRESSIONS[section];
  return sets[style.progressionSet % sets.length]!;
}

/** Bars where the lead plays an arpeggio of the chord (intro, breaks, `[inst]`). */
function instrumentalBars(count: number, style: SongStyle, salt: number): Bar[] {
  const random = seededRandom(hashParts(style.seed, 'inst', salt));
  const pattern = Array.from({ length: 8 }, () => [0, 2, 4, 7, 4, 2][Math.floor(random() * 6)]!);
  const chords = progression('inst', style);
  return Array.from({ length: count }, (_, b) => {
    const chord = chords[(b + salt) % 4]!;
    return {
      section: 'inst' as const,
      chord,
      melody: pattern.map((tone, i) => ({ step: i * 2, steps: 2, degree: chord + tone })),
      sung: false,
    };
  });
}

/** Without lyrics: a verse / chorus / bridge form whose melodies come from the style's seed. */
function generatedBars(style: SongStyle): Bar[] {
  const form: [SectionKind, number][] = [
    ['verse', 4],
    ['chorus', 4],
    ['verse', 4],
    ['bridge', 2],
    ['chorus', 4],
  ];
  const lines: LyricLine[] = [];
  for (const [section, count] of form) {
    for (let i = 0; i < count; i++) {
      const text = `${section}-${i}-${hashText(String(style.seed))}`;
      const random = seededRandom(hashParts(style.seed, text));
      const syllables = Array.from({ length: 4 + Math.floor(random() * 4) }, (_, k) => `${text}-${k}`);
      lines.push({ section, syllables, text });
    }
  }
  return lyricBars(lines, style);
}
