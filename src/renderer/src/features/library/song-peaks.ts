/**
 * A song card's mini waveform (issue 21, item 10), as data: the peaks of the saved song, a few
 * bars of its loudest points, read once by the window (SongWave.tsx decodes it) and kept small
 * (two digits a bar) so the cards of many songs cost little; until they are read, a colour of its
 * own, the same for the same song every time. Pure; no DOM, no audio.
 */

/** The bars a card draws. */
export const PEAK_BARS = 32;

/** The loudest sample of each of `bars` equal slices, scaled to the loudest slice (0..1, two digits). */
export function peaksOf(samples: ArrayLike<number>, bars = PEAK_BARS): number[] {
  const out: number[] = [];
  const per = samples.length / bars;
  for (let b = 0; b < bars; b++) {
    let max = 0;
    const end = Math.min(samples.length, Math.floor((b + 1) * per));
    for (let i = Math.floor(b * per); i < end; i++) {
      const v = Math.abs(samples[i] ?? 0);
      if (v > max) max = v;
    }
    out.push(max);
  }
  const top = Math.max(...out, 0);
  return out.map((v) => (top > 0 ? Math.round((v / top) * 99) / 99 : 0));
}

/** Peaks as kept: two digits a bar (`00`..`99`). */
export function peaksText(peaks: readonly number[]): string {
  return peaks.map((p) => String(Math.round(Math.min(1, Math.max(0, p)) * 99)).padStart(2, '0')).join('');
}

/** Peaks from their kept text, or null when it is not PEAK_BARS bars of two digits. */
export function peaksFromText(text: string | null): number[] | null {
  if (text === null || !new RegExp(`^\\d{${PEAK_BARS * 2}}$`).test(text)) return null;
  return Array.from({ length: PEAK_BARS }, (_, i) => Number(text.slice(i * 2, i * 2 + 2)) / 99);
}

/** A song's own hue (0..359), the same for the same id every time: its card's colour before its peaks. */
export function songHue(id: string): number {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) % 360;
}
