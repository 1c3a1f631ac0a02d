/**
 * How a waveform is drawn (wavesurfer options), the same in the player bar and in a song's own
 * player: the theme's colours, read from its CSS variables, and the bars' shape.
 */
import type { WaveSurferOptions } from 'wavesurfer.js';

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The wave, played-part and cursor colours of the theme in use now. */
export function waveColours(): Pick<WaveSurferOptions, 'waveColor' | 'progressColor' | 'cursorColor'> {
  return {
    waveColor: cssVar('--wave', '#8a94a6'),
    progressColor: cssVar('--accent', '#5b5bd6'),
    cursorColor: cssVar('--text', '#1b1d23'),
  };
}

/** Rounded bars scaled to the loudest point, a 2 px cursor, and seeking by dragging on the wave. */
export const WAVE_BARS = {
  cursorWidth: 2,
  barWidth: 2,
  barGap: 1,
  barRadius: 2,
  normalize: true,
  dragToSeek: true,
} as const satisfies Partial<WaveSurferOptions>;
