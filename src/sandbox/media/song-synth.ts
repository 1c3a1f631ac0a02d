/** Additive synthesis of a planned song into a float buffer: lead, pad, bass and drums. */
import { seededRandom } from './seeded-random.ts';
import { type Bar, STEPS_PER_BAR } from './song-plan.ts';
import type { SongStyle, Timbre } from './song-style.ts';

const TABLE_SIZE = 2048;
const TABLE_MASK = TABLE_SIZE - 1;

interface Voice {
  table: Float32Array;
  timbre: Timbre;
}

interface NoteEvent {
  start: number;
  length: number;
  midi: number;
  gain: number;
}

const PAD: Timbre = {
  harmonics: [1, 0.3, 0.1],
  attackSeconds: 0.15,
  decaySeconds: 1,
  sustain: 0.8,
  releaseSeconds: 0.2,
};
const BASS: Timbre = {
  harmonics: [1, 0.45, 0.12],
  attackSeconds: 0.005,
  decaySeconds: 0.25,
  sustain: 0.6,
  releaseSeconds: 0.05,
};

const SECTION_GAIN = { verse: 0.85, chorus: 1.1, bridge: 0.95, inst: 0.8 } as const;

/** Renders every bar that starts inside `out` (notes ending past the end are cut). */
export function renderSong(out: Float32Array, bars: Bar[], style: SongStyle, sampleRate: number): void {
  const stepSamples = ((60 / style.bpm) * 4 * sampleRate) / STEPS_PER_BAR;
  const lead = voice(style.lead);
  const pad = voice(PAD);
  const bass = voice(BASS);
  const noise = seededRandom(style.seed ^ 0x5eed);
  bars.forEach((bar, index) => {
    const barStart = index * STEPS_PER_BAR * stepSamples;
    if (barStart >= out.length) return;
    const gain = SECTION_GAIN[bar.section];
    const at = (step: number) => Math.round(barStart + step * stepSamples);
    for (const note of bar.melody) {
      const midi = degreeToMidi(note.degree, style) + (bar.sung ? 0 : 12);
      const event = {
        start: at(note.step),
        length: Math.round(note.steps * stepSamples),
        midi,
        gain: gain * (bar.sung ? 0.34 : 0.22),
      };
      renderNote(out, event, lead, sampleRate);
    }
    renderChord(out, bar, at, stepSamples, style, pad, sampleRate);
    if (style.bass) renderBass(out, bar, at, stepSamples, style, bass, sampleRate);
    if (style.drums) renderDrums(out, bar, at, sampleRate, noise);
  });
}

function renderChord(
  out: Float32Array,
  bar: Bar,
  at: (step: number) => number,
  stepSamples: number,
  style: SongStyle,
  pad: Voice,
  sampleRate: number,
): void {
  const held = bar.section === 'chorus' || bar.section === 'bridge';
  for (const tone of [0, 2, 4]) {
    const midi = degreeToMidi(bar.chord + tone, style) - 12;
    if (held) {
      renderNote(
        out,
        { start: at(0), length: Math.round(STEPS_PER_BAR * stepSamples), midi, gain: 0.07 },
        pad,
        sampleRate,
      );
      continue;
    }
    // Verses and instrumental bars: the chord is struck on each beat.
    for (let beat = 0; beat < 4; beat++) {
      const start = at(beat * 4 + tone / 2);
      renderNote(out, { start, length: Math.round(3 * stepSamples), midi, gain: 0.06 }, pad, sampleRate);
    }
  }
}

function renderBass(
  out: Float32Array,
  bar: Bar,
  at: (step: number) => number,
  stepSamples: number,
  style: SongStyle,
  bass: Voice,
  sampleRate: number,
): void {
  const midi = degreeToMidi(bar.chord, style) - 24;
  const steps = bar.section === 'chorus' ? [0, 4, 8, 12] : bar.section === 'bridge' ? [0, 8] : [0, 6, 8, 14];
  for (const step of steps) {
    const length = Math.round((step === 6 || step === 14 ? 2 : 4) * stepSamples);
    renderNote(out, { start: at(step), length, midi, gain: 0.3 }, bass, sampleRate);
  }
}

function renderDrums(
  out: Float32Array,
  bar: Bar,
  at: (step: number) => number,
  sampleRate: number,
  noise: () => number,
): void {
  const full = bar.section === 'chorus';
  const kicks = full ? [0, 4, 8, 12] : bar.section === 'bridge' ? [0] : [0, 8, 10];
  for (const step of kicks) renderKick(out, at(step), sampleRate);
  if (bar.section !== 'bridge') for (const step of [4, 12]) renderSnare(out, at(step), sampleRate, noise);
  const hatStride = full ? 1 : 2;
  for (let step = 0; step < STEPS_PER_BAR; step += hatStride)
    renderHat(out, at(step), sampleRate, noise, step % 4 === 2 ? 0.07 : 0.04);
}

function voice(timbre: Timbre): Voice {
  const table = new Float32Array(TABLE_SIZE);
  let peak = 0;
  for (let i = 0; i < TABLE_SIZE; i++) {
    let v = 0;
    timbre.harmonics.forEach((amp, h) => {
      v += amp * Math.sin((2 * Math.PI * (h + 1) * i) / TABLE_SIZE);
    });
    table[i] = v;
    peak = Math.max(peak, Math.abs(v));
  }
  for (let i = 0; i < TABLE_SIZE; i++) table[i] = table[i]! / peak;
  return { table, timbre };
}

function degreeToMidi(degree: number, style: SongStyle): number {
  const size = style.scale.length;
  const octave = Math.floor(degree / size);
  return style.tonic + 12 * octave + style.scale[degree - octave * size]!;
}

/** One note with an attack / decay-to-sustain / release envelope, added into `out`. */
function renderNote(out: Float32Array, note: NoteEvent, v: Voice, sampleRate: number): void {
  const { timbre, table } = v;
  const increment = (440 * 2 ** ((note.midi - 69) / 12) * TABLE_SIZE) / sampleRate;
  const attack = Math.min(note.length, Math.max(1, Math.round(timbre.attackSeconds * sampleRate)));
  const release = Math.max(1, Math.round(timbre.releaseSeconds * sampleRate));
  const decayPerSample = Math.exp(-1 / (timbre.decaySeconds * sampleRate));
  const attackEnd = Math.min(out.length, note.start + attack);
  const holdEnd = Math.min(out.length, note.start + note.length);
  const end = Math.min(out.length, note.start + note.length + release);
  const gain = note.gain;
  const sustain = timbre.sustain;
  let phase = 0;
  let i = note.start;
  for (; i < attackEnd; i++) {
    out[i]! += (gain * (i - note.start) * table[(phase | 0) & TABLE_MASK]!) / attack;
    phase += increment;
  }
  // The level above sustain decays geometrically.
  let excess = 1 - sustain;
  for (; i < holdEnd; i++) {
    excess *= decayPerSample;
    out[i]! += gain * (sustain + excess) * table[(phase | 0) & TABLE_MASK]!;
    phase += increment;
  }
  let level = gain * (sustain + excess);
  const releaseStep = level / release;
  for (; i < end; i++) {
    level -= releaseStep;
    out[i]! += level * table[(phase | 0) & TABLE_MASK]!;
    phase += increment;
  }
}

/** A shared sine table for the drums. */
const SINE = voice({
  harmonics: [1],
  attackSeconds: 0,
  decaySeconds: 1,
  sustain: 1,
  releaseSeconds: 0,
}).table;

function renderKick(out: Float32Array, start: number, sampleRate: number): void {
  const length = Math.min(out.length - start, Math.round(0.18 * sampleRate));
  const ampDecay = Math.exp(-18 / sampleRate);
  const sweepDecay = Math.exp(-30 / sampleRate);
  let amp = 0.55;
  let sweep = 90;
  let phase = 0;
  for (let t = 0; t < length; t++) {
    phase += ((45 + sweep) * TABLE_SIZE) / sampleRate;
    sweep *= sweepDecay;
    amp *= ampDecay;
    out[start + t]! += amp * SINE[(phase | 0) & TABLE_MASK]!;
  }
}

function renderSnare(out: Float32Array, start: number, sampleRate: number, noise: () => number): void {
  const length = Math.min(out.length - start, Math.round(0.14 * sampleRate));
  const bodyDecay = Math.exp(-40 / sampleRate);
  const noiseDecay = Math.exp(-25 / sampleRate);
  const increment = (185 * TABLE_SIZE) / sampleRate;
  let body = 0.22 * 0.6;
  let hiss = 0.22;
  let phase = 0;
  for (let t = 0; t < length; t++) {
    out[start + t]! += body * SINE[(phase | 0) & TABLE_MASK]! + hiss * (noise() * 2 - 1);
    phase += increment;
    body *= bodyDecay;
    hiss *= noiseDecay;
  }
}

function renderHat(
  out: Float32Array,
  start: number,
  sampleRate: number,
  noise: () => number,
  gain: number,
): void {
  const length = Math.min(out.length - start, Math.round(0.035 * sampleRate));
  const decay = Math.exp(-120 / sampleRate);
  let level = gain;
  let previous = 0;
  for (let t = 0; t < length; t++) {
    const white = noise() * 2 - 1;
    out[start + t]! += level * (white - previous);
    previous = white;
    level *= decay;
  }
}
