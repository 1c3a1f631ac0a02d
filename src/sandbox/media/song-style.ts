/** Musical choices (key, scale, tempo, instruments) derived deterministically from the style prompt. */
import { seededRandom } from './seeded-random.ts';
import { hashParts } from './text-hash.ts';

export interface Timbre {
  /** Relative amplitudes of harmonics 1, 2, 3, ... */
  harmonics: number[];
  attackSeconds: number;
  /** Time constant of the decay towards `sustain`. */
  decaySeconds: number;
  sustain: number;
  releaseSeconds: number;
}

export interface SongStyle {
  /** Seed of every later random choice (melody of instrumental parts, drum noise). */
  seed: number;
  /** MIDI note of the tonic in the melody's register. */
  tonic: number;
  scale: readonly number[];
  bpm: number;
  lead: Timbre;
  drums: boolean;
  bass: boolean;
  /** Index of the chord progression set used by every section. */
  progressionSet: number;
}

const MAJOR = [0, 2, 4, 5, 7, 9, 11] as const;
const MINOR = [0, 2, 3, 5, 7, 8, 10] as const;

const TIMBRES: Record<string, Timbre> = {
  piano: {
    harmonics: [1, 0.5, 0.3, 0.15, 0.1, 0.05],
    attackSeconds: 0.004,
    decaySeconds: 0.5,
    sustain: 0.15,
    releaseSeconds: 0.12,
  },
  guitar: {
    harmonics: [1, 0.7, 0.45, 0.3, 0.2, 0.12, 0.08],
    attackSeconds: 0.003,
    decaySeconds: 0.35,
    sustain: 0.2,
    releaseSeconds: 0.08,
  },
  synth: {
    harmonics: [1, 0.5, 0.33, 0.25, 0.2, 0.17, 0.14, 0.12],
    attackSeconds: 0.01,
    decaySeconds: 0.2,
    sustain: 0.7,
    releaseSeconds: 0.06,
  },
  flute: {
    harmonics: [1, 0.12, 0.05],
    attackSeconds: 0.04,
    decaySeconds: 0.3,
    sustain: 0.85,
    releaseSeconds: 0.08,
  },
  strings: {
    harmonics: [1, 0.6, 0.4, 0.3, 0.2, 0.15, 0.1],
    attackSeconds: 0.08,
    decaySeconds: 0.4,
    sustain: 0.9,
    releaseSeconds: 0.15,
  },
  voice: {
    harmonics: [1, 0.8, 0.35, 0.5, 0.15, 0.1],
    attackSeconds: 0.03,
    decaySeconds: 0.3,
    sustain: 0.8,
    releaseSeconds: 0.07,
  },
};

const TIMBRE_WORDS: [RegExp, keyof typeof TIMBRES][] = [
  [/piano|keys|rhodes/, 'piano'],
  [/guitar|folk|country|rock/, 'guitar'],
  [/synth|edm|electro|techno|house|trance|8-?bit|chiptune/, 'synth'],
  [/flute|whistle|ambient/, 'flute'],
  [/string|violin|cello|orchestra|cinematic/, 'strings'],
  [/vocal|choir|sing|voice/, 'voice'],
];

/** Reads the style prompt (words first, hash for the rest) into the choices of one song. */
export function songStyle(stylePrompt: string, negativePrompt = '', seedText = ''): SongStyle {
  const style = stylePrompt.toLowerCase();
  const negative = negativePrompt.toLowerCase();
  const seed = hashParts(style, negative, seedText);
  const random = seededRandom(seed);
  return {
    seed,
    tonic: 55 + Math.floor(random() * 12),
    scale: chooseMinor(style, random()) ? MINOR : MAJOR,
    bpm: chooseTempo(style, random()),
    lead: chooseTimbre(style, random()),
    drums: !/drum|percussion|beat/.test(negative) && !/a cappella|acapella|classical|solo piano/.test(style),
    bass: !/bass/.test(negative),
    progressionSet: Math.floor(random() * 3),
  };
}

function chooseMinor(style: string, roll: number): boolean {
  if (/sad|dark|minor|melanchol|blues|emo|metal|goth|moody/.test(style)) return true;
  if (/happy|bright|major|upbeat|cheerful|sunny/.test(style)) return false;
  return roll < 0.4;
}

function chooseTempo(style: string, roll: number): number {
  if (/drum and bass|dnb|drum'n'bass/.test(style)) return 170 + Math.round(roll * 6);
  if (/ballad|slow|ambient|lo-?fi|chill|lullaby/.test(style)) return 68 + Math.round(roll * 22);
  if (/edm|dance|punk|metal|techno|house|fast|energetic/.test(style)) return 120 + Math.round(roll * 30);
  return 88 + Math.round(roll * 40);
}

function chooseTimbre(style: string, roll: number): Timbre {
  for (const [words, name] of TIMBRE_WORDS) if (words.test(style)) return TIMBRES[name]!;
  const names = Object.keys(TIMBRES);
  return TIMBRES[names[Math.min(names.length - 1, Math.floor(roll * names.length))]!]!;
}
