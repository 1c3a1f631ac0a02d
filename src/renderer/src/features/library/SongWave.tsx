/**
 * A song card's picture (issue 21, item 10): its waveform in a few bars, from the saved song's
 * peaks (song-peaks.ts), over a colour of its own; until the peaks are read, the colour alone.
 * Peaks are read by decoding the song once, one song at a time and only for cards shown (the
 * gallery is virtualized), and kept in this window's storage, so a card draws them at once next
 * time. A song too large to read cheaply keeps its colour.
 */
import { type CSSProperties, useEffect, useSyncExternalStore } from 'react';
import { posterQueue } from './poster-queue.ts';
import { PEAK_BARS, peaksFromText, peaksOf, peaksText, songHue } from './song-peaks.ts';

/** Songs above this are not read for peaks (a card keeps its colour). */
const PEAKS_MAX_BYTES = 48 * 1024 * 1024;
const STORAGE_PREFIX = 'song-peaks:v1:';

const known = new Map<string, readonly number[]>();
const listeners = new Set<() => void>();

function keyOf(taskId: string, index: number): string {
  return `${taskId}:${index}`;
}

function kept(key: string): readonly number[] | null {
  const held = known.get(key);
  if (held) return held;
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(STORAGE_PREFIX + key);
  } catch {
    // no storage: read again
  }
  const peaks = peaksFromText(text);
  if (peaks) known.set(key, peaks);
  return peaks;
}

function keep(key: string, peaks: readonly number[]): void {
  known.set(key, peaks);
  try {
    window.localStorage.setItem(STORAGE_PREFIX + key, peaksText(peaks));
  } catch {
    // full or off: kept for this session only
  }
  for (const listener of listeners) listener();
}

const reader = posterQueue(async (job) => {
  const response = await fetch(job.url);
  if (!response.ok) throw new Error(`the song could not be read (${response.status})`);
  const bytes = await response.arrayBuffer();
  const context = new OfflineAudioContext(1, 1, 8000);
  const audio = await context.decodeAudioData(bytes);
  keep(keyOf(job.taskId, job.index), peaksOf(audio.getChannelData(0)));
}, 1);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function SongWave({
  taskId,
  index,
  url,
  size,
}: {
  taskId: string;
  index: number;
  /** The saved song as a URL the page may load; null while it is not saved. */
  url: string | null;
  size: number | null;
}) {
  const key = keyOf(taskId, index);
  const peaks = useSyncExternalStore(subscribe, () => kept(key));
  const readable = url !== null && (size === null || size <= PEAKS_MAX_BYTES);
  useEffect(() => {
    if (!peaks && readable && url) reader.request({ taskId, index, url });
  }, [peaks, readable, url, taskId, index]);
  const hue = songHue(taskId);
  return (
    <span
      className="card-wave"
      data-testid="card-wave"
      data-state={peaks ? 'peaks' : 'colour'}
      style={{ '--song-hue': String(hue) } as CSSProperties}
      aria-hidden="true"
    >
      {peaks ? (
        <svg
          viewBox={`0 0 ${PEAK_BARS * 3} 100`}
          preserveAspectRatio="none"
          className="card-wave-bars"
          aria-hidden="true"
        >
          {peaks.map((p, i) => {
            const h = Math.max(4, p * 92);
            // biome-ignore lint/suspicious/noArrayIndexKey: a bar's place is its identity
            return <rect key={i} x={i * 3} y={(100 - h) / 2} width={2} height={h} rx={1} />;
          })}
        </svg>
      ) : null}
    </span>
  );
}
