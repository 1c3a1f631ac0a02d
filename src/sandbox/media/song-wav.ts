/** A deterministic song (melody from the lyrics, accompaniment from the style) as a 16-bit mono WAV. */
import { planSong } from './song-plan.ts';
import { songStyle } from './song-style.ts';
import { renderSong } from './song-synth.ts';
import { encodeWav16 } from './wav-encode.ts';

export interface SongParams {
  stylePrompt: string;
  lyrics: string;
  negativePrompt?: string;
  durationSeconds: number;
  /** Extra text mixed into every random choice (e.g. the task id), so equal prompts can differ. */
  seedText?: string;
  /** Default 22050 Hz. */
  sampleRate?: number;
  /** Fade at the start; default 0.005 s (a click guard). */
  fadeInSeconds?: number;
  /** Fade at the end; default 0.5 s (a song's ending). */
  fadeOutSeconds?: number;
}

export const SONG_SAMPLE_RATE = 22050;
const PEAK = 0.89;

/** The WAV holds exactly round(durationSeconds * sampleRate) samples, never silence. */
export function generateSongWav(params: SongParams): Buffer {
  const sampleRate = params.sampleRate ?? SONG_SAMPLE_RATE;
  if (!Number.isFinite(params.durationSeconds) || params.durationSeconds <= 0) {
    throw new RangeError(`durationSeconds must be a positive number, got ${params.durationSeconds}`);
  }
  if (!Number.isInteger(sampleRate) || sampleRate < 8000 || sampleRate > 96000) {
    throw new RangeError(`sampleRate must be an integer from 8000 to 96000, got ${sampleRate}`);
  }
  const count = Math.max(1, Math.round(params.durationSeconds * sampleRate));
  return encodeWav16(songSamples(params, count, sampleRate), sampleRate);
}

/** Exactly `frames` mono 16-bit samples of the song at `sampleRate` (frames at least 1). */
export function songSamples(
  params: Omit<SongParams, 'durationSeconds' | 'sampleRate'>,
  frames: number,
  sampleRate: number,
): Int16Array {
  const style = songStyle(params.stylePrompt, params.negativePrompt, params.seedText);
  const bars = planSong(params.lyrics, style, frames / sampleRate);
  const mix = new Float32Array(frames);
  renderSong(mix, bars, style, sampleRate);
  return toInt16(mix, sampleRate, params.fadeInSeconds ?? 0.005, params.fadeOutSeconds ?? 0.5);
}

/** Normalises the peak to -1 dBFS, with a fade in and a fade out, into 16-bit samples. */
function toInt16(
  mix: Float32Array,
  sampleRate: number,
  fadeInSeconds: number,
  fadeOutSeconds: number,
): Int16Array {
  let peak = 0;
  for (let i = 0; i < mix.length; i++) {
    const v = mix[i]!;
    if (v > peak) peak = v;
    else if (-v > peak) peak = -v;
  }
  const scale = peak > 0 ? (PEAK * 32767) / peak : 0;
  const out = new Int16Array(mix.length);
  // Writing into an Int16Array truncates towards zero; the scaled values are always inside the 16-bit range.
  for (let i = 0; i < mix.length; i++) out[i] = mix[i]! * scale;
  const fadeIn = Math.min(Math.round(fadeInSeconds * sampleRate), Math.floor(mix.length / 4));
  for (let i = 0; i < fadeIn; i++) out[i] = (out[i]! * (i + 1)) / (fadeIn + 1);
  const fadeOut = Math.min(Math.round(fadeOutSeconds * sampleRate), Math.floor(mix.length / 10));
  for (let k = 1; k <= fadeOut; k++) {
    const i = mix.length - k;
    out[i] = (out[i]! * k) / (fadeOut + 1);
  }
  return out;
}
