/**
 * An extended song: new music before (left) and after (right) the source song, whose own samples
 * are kept unchanged in the middle. The result has the source's sample rate and channels and
 * holds exactly round(left x rate) + source frames + round(right x rate) frames.
 */
import { type SongParams, songSamples } from './song-wav.ts';
import { readWavSamples, type WavHeader } from './wav-decode.ts';
import { encodeWav16 } from './wav-encode.ts';

export interface ExtendSongParams {
  /** The source WAV file and its checked header (wav-decode.ts). */
  source: Buffer;
  header: WavHeader;
  leftSeconds: number;
  rightSeconds: number;
  /** What the new parts are made from (their length and rate come from the above). */
  song: Omit<SongParams, 'durationSeconds' | 'sampleRate'>;
}

/** Fade where a new part meets the source: long enough to avoid a click, short enough to hear the join. */
const JOIN_FADE_SECONDS = 0.02;

/** The extended song as a 16-bit PCM WAV. */
export function extendSongWav(params: ExtendSongParams): Buffer {
  const { header, song } = params;
  const rate = header.sampleRate;
  const channels = header.channels;
  const source = readWavSamples(params.source, header);
  const left = framesOf(params.leftSeconds, rate);
  const right = framesOf(params.rightSeconds, rate);
  const out = new Int16Array((left + header.frames + right) * channels);
  const level = peakOf(source);
  const seed = song.seedText ?? '';
  if (left > 0) {
    const part = songSamples(
      { ...song, seedText: `${seed}|before`, fadeOutSeconds: JOIN_FADE_SECONDS },
      left,
      rate,
    );
    putPart(out, 0, part, channels, level);
  }
  out.set(source, left * channels);
  if (right > 0) {
    const part = songSamples(
      { ...song, seedText: `${seed}|after`, fadeInSeconds: JOIN_FADE_SECONDS },
      right,
      rate,
    );
    putPart(out, (left + header.frames) * channels, part, channels, level);
  }
  return encodeWav16(out, rate, channels);
}

function framesOf(seconds: number, rate: number): number {
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * rate) : 0;
}

function peakOf(samples: Int16Array): number {
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = Math.abs(samples[i]!);
    if (v > peak) peak = v;
  }
  return peak;
}

/** Writes a mono part into every channel from `at`, no louder than the source's peak. */
function putPart(out: Int16Array, at: number, part: Int16Array, channels: number, level: number): void {
  const partPeak = peakOf(part);
  const gain = level > 0 && partPeak > 0 ? Math.min(1, level / partPeak) : 1;
  for (let i = 0; i < part.length; i++) {
    const v = Math.round(part[i]! * gain);
    for (let c = 0; c < channels; c++) out[at + i * channels + c] = v;
  }
}
