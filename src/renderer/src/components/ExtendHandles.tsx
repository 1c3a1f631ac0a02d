/**
 * A song's waveform between two handles that say how many seconds to add before (left) and after
 * (right) it: drag a handle outwards to add, back to take away. Each handle is a slider (Left and
 * Right arrows move it as it looks, Up adds and Down takes away a second, Page Up / Page Down ten,
 * Home none, End the most). The song keeps at least a quarter of the width so a short one stays
 * visible; each side shows up to `reach` seconds (grown when a value goes past it, frozen while
 * dragging so the handle stays under the pointer).
 */
import '../styles/result-forms.css';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';

export type ExtendSide = 'left' | 'right';

export interface ExtendHandlesProps {
  left: number;
  right: number;
  /** The most seconds either side may add. */
  max: number;
  /** How long the song is, when known (else its waveform tells, once loaded). */
  sourceSeconds: number | null;
  /** The song as a URL the page may load, for its waveform; null draws a plain bar. */
  audioUrl: string | null;
  title: string;
  onChange(side: ExtendSide, seconds: number): void;
}

const MIN_REACH_S = 30;
const SONG_MIN_SHARE = 0.25;
const STEP_S = 1;
const PAGE_S = 10;

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The song's waveform, drawn once its file loads; its length is reported when known. */
function SongWave({ url, onDuration }: { url: string; onDuration(seconds: number): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const report = useRef(onDuration);
  report.current = onDuration;
  const [ready, setReady] = useState(false);
  useEffect(() => {
    setReady(false);
    const container = ref.current;
    if (!container) return;
    const wave = WaveSurfer.create({
      container,
      url,
      height: 64,
      interact: false,
      waveColor: cssVar('--wave', '#8a94a6'),
      progressColor: cssVar('--wave', '#8a94a6'),
      cursorWidth: 0,
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
      normalize: true,
    });
    const off = wave.on('ready', (d) => {
      setReady(true);
      report.current(d);
    });
    return () => {
      off();
      wave.destroy();
    };
  }, [url]);
  return (
    <div ref={ref} className="extend-wave" data-testid="extend-wave" data-ready={ready ? 'true' : 'false'} />
  );
}

const clamp = (n: number, max: number) => Math.min(max, Math.max(0, Math.round(n)));

function secondsText(n: number): string {
  return `${n} second${n === 1 ? '' : 's'}`;
}

export function ExtendHandles({
  left,
  right,
  max,
  sourceSeconds,
  audioUrl,
  title,
  onChange,
}: ExtendHandlesProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const [decoded, setDecoded] = useState<number | null>(null);
  const [frozenReach, setFrozenReach] = useState<number | null>(null);
  const drag = useRef<{ side: ExtendSide; startX: number; start: number; secondsPerPx: number } | null>(null);

  const known = sourceSeconds ?? decoded;
  const song = known ?? MIN_REACH_S;
  const reach = frozenReach ?? Math.max(MIN_REACH_S, song, left, right);
  const songShare = Math.max(SONG_MIN_SHARE, song / (song + 2 * reach));
  const side = (1 - songShare) / 2;
  const pct = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;
  const leftAt = side * (1 - left / reach);
  const rightAt = side + songShare + side * (right / reach);

  const value = (s: ExtendSide) => (s === 'left' ? left : right);

  const onPointerDown = (s: ExtendSide) => (event: PointerEvent<HTMLDivElement>) => {
    const width = trackRef.current?.getBoundingClientRect().width ?? 0;
    if (width <= 0 || event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.focus();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { side: s, startX: event.clientX, start: value(s), secondsPerPx: reach / (side * width) };
    setFrozenReach(reach);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const dx = event.clientX - d.startX;
    const outwards = d.side === 'left' ? -dx : dx;
    const next = clamp(d.start + outwards * d.secondsPerPx, max);
    if (next !== value(d.side)) onChange(d.side, next);
  };
  const endDrag = () => {
    drag.current = null;
    setFrozenReach(null);
  };

  const onKeyDown = (s: ExtendSide) => (event: KeyboardEvent<HTMLDivElement>) => {
    const now = value(s);
    const outward = s === 'left' ? 'ArrowLeft' : 'ArrowRight';
    const inward = s === 'left' ? 'ArrowRight' : 'ArrowLeft';
    let next: number | null = null;
    if (event.key === outward || event.key === 'ArrowUp') next = now + STEP_S;
    else if (event.key === inward || event.key === 'ArrowDown') next = now - STEP_S;
    else if (event.key === 'PageUp') next = now + PAGE_S;
    else if (event.key === 'PageDown') next = now - PAGE_S;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    const clamped = clamp(next, max);
    if (clamped !== now) onChange(s, clamped);
  };

  const handle = (s: ExtendSide, at: number) => {
    const seconds = value(s);
    const where = s === 'left' ? 'before' : 'after';
    return (
      <div
        className={`extend-handle extend-handle-${s}`}
        style={{ left: pct(at) }}
        role="slider"
        tabIndex={0}
        aria-label={`Seconds to add ${where} the song`}
        aria-orientation="horizontal"
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={seconds}
        aria-valuetext={`${secondsText(seconds)} ${where}`}
        aria-describedby="extend-keys"
        data-testid={`extend-handle-${s}`}
        onPointerDown={onPointerDown(s)}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onLostPointerCapture={endDrag}
        onKeyDown={onKeyDown(s)}
      >
        <span className="extend-handle-label" aria-hidden="true">
          +{seconds} s
        </span>
        <span className="extend-handle-grip" aria-hidden="true" />
      </div>
    );
  };

  return (
    <div className="extend-handles" data-testid="extend-handles">
      <div ref={trackRef} className="extend-track">
        <div
          className={left > 0 ? 'extend-added' : 'extend-added extend-added-none'}
          style={{ left: pct(leftAt), width: pct(side - leftAt) }}
          aria-hidden="true"
          data-testid="extend-added-left"
        />
        <div
          className="extend-song"
          style={{ left: pct(side), width: pct(songShare) }}
          title={title}
          data-testid="extend-song"
        >
          {audioUrl ? <SongWave url={audioUrl} onDuration={setDecoded} /> : <div className="extend-bar" />}
          <span className="extend-song-label">
            {known !== null ? `${title} · ${Math.round(known)} s` : `${title} · length not known here`}
          </span>
        </div>
        <div
          className={right > 0 ? 'extend-added' : 'extend-added extend-added-none'}
          style={{ left: pct(side + songShare), width: pct(rightAt - side - songShare) }}
          aria-hidden="true"
          data-testid="extend-added-right"
        />
        {handle('left', leftAt)}
        {handle('right', rightAt)}
      </div>
      <p id="extend-keys" className="visually-hidden">
        Drag the handle, or use the arrow keys: outwards adds a second, inwards takes one away; Page Up and
        Page Down ten; Home none; End the most.
      </p>
    </div>
  );
}
