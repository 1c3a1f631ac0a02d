/**
 * A song's waveform in its detail (wavesurfer.js), as a view of the one player (issue 21, item 9):
 * it draws the file, and while the player has this song loaded it shows the player's position
 * and playing state; clicking or dragging on it, play/pause, ±5 s and the keyboard (space, arrows
 * while it has focus) drive the player (player-state.ts), loading this song there first when
 * another one is loaded. There is no second audio: wavesurfer gets an element of its own only
 * to draw and to place its cursor, which never plays. Zoom (+ and -) is the waveform's own.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { formatClock } from '../model/time-format.ts';
import { usePlayer } from '../state/player-state.ts';
import { ProblemMessage } from './ProblemMessage.tsx';
import { WAVE_BARS, waveColours } from './waveform-look.ts';

const SEEK_STEP_S = 5;
const ZOOM_MIN = 0;
const ZOOM_MAX = 400;
const ZOOM_STEP = 25;

/** Whether the player has this output of this task loaded. */
function loadedIn(s: { taskId: string | null; outputIndex: number | null }, taskId: string, output: number) {
  return s.taskId === taskId && s.outputIndex === output;
}

/** Plays this output from `seconds` (the player loads it first when another song is loaded). */
function playFrom(taskId: string, output: number, seconds: number | null): void {
  const player = usePlayer.getState();
  if (!loadedIn(player, taskId, output) && !player.playTask(taskId, output)) return;
  if (seconds !== null) usePlayer.getState().seek(seconds);
}

export function WaveformPlayer({
  url,
  title,
  taskId,
  output,
}: {
  url: string;
  title: string;
  taskId: string;
  /** The output's `index`: the one the player plays from here. */
  output: number;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const waveRef = useRef<WaveSurfer | null>(null);
  const [ready, setReady] = useState(false);
  const [drawnDuration, setDrawnDuration] = useState(0);
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const [error, setError] = useState<string | null>(null);
  const loaded = usePlayer((s) => loadedIn(s, taskId, output));
  const playing = usePlayer((s) => loadedIn(s, taskId, output) && s.playing);
  const time = usePlayer((s) => (loadedIn(s, taskId, output) ? s.position : 0));
  const playerDuration = usePlayer((s) => (loadedIn(s, taskId, output) ? s.duration : 0));
  const duration = playerDuration || drawnDuration;

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    setReady(false);
    setError(null);
    // only for drawing and the cursor: never played
    const cursor = document.createElement('audio');
    cursor.preload = 'metadata';
    const wave = WaveSurfer.create({
      container,
      url,
      media: cursor,
      height: 96,
      ...waveColours(),
      ...WAVE_BARS,
    });
    waveRef.current = wave;
    const place = () => {
      const s = usePlayer.getState();
      const at = loadedIn(s, taskId, output) ? s.position : 0;
      if (Math.abs(cursor.currentTime - at) > 0.05) wave.setTime(at);
    };
    const offs = [
      wave.on('ready', (d) => {
        setDrawnDuration(d);
        setReady(true);
        place();
      }),
      // a click or drag on the waveform moves the player (wavesurfer has moved its own cursor)
      wave.on('interaction', (at) => playFrom(taskId, output, at)),
      wave.on('error', (e) => setError(`Could not load the audio: ${e.message}`)),
      usePlayer.subscribe(place),
    ];
    return () => {
      for (const off of offs) off();
      wave.destroy();
      cursor.removeAttribute('src');
      waveRef.current = null;
    };
  }, [url, taskId, output]);

  useEffect(() => {
    if (ready) waveRef.current?.zoom(zoom);
  }, [zoom, ready]);

  const playPause = () => {
    if (loaded) usePlayer.getState().toggle();
    else playFrom(taskId, output, null);
  };
  const seekBy = (seconds: number) => {
    if (!ready) return;
    playFrom(taskId, output, Math.min(Math.max(0, time + seconds), duration));
  };
  const zoomBy = (step: number) => setZoom((z) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, z + step)));

  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLButtonElement) return;
    if (event.key === ' ' || event.key === 'Spacebar') {
      event.preventDefault();
      playPause();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      seekBy(SEEK_STEP_S);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      seekBy(-SEEK_STEP_S);
    } else if (event.key === '+' || event.key === '=') {
      event.preventDefault();
      zoomBy(ZOOM_STEP);
    } else if (event.key === '-' || event.key === '_') {
      event.preventDefault();
      zoomBy(-ZOOM_STEP);
    }
  };

  return (
    <fieldset
      className="waveform-player"
      aria-label={`Audio player: ${title}`}
      aria-describedby="waveform-keys"
      data-testid="waveform-player"
      data-ready={ready ? 'true' : 'false'}
      data-playing={playing ? 'true' : 'false'}
      onKeyDown={onKeyDown}
    >
      <div
        ref={containerRef}
        className="waveform"
        data-testid="waveform"
        tabIndex={0}
        role="slider"
        aria-label="Playback position"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(time)}
        aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
      />
      <ProblemMessage problem={error} />
      <div className="player-controls">
        <button
          type="button"
          className="button button-primary"
          onClick={playPause}
          disabled={!ready}
          aria-label={playing ? 'Pause' : 'Play'}
        >
          <span aria-hidden="true">{playing ? '❚❚' : '▶'}</span> {playing ? 'Pause' : 'Play'}
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => seekBy(-SEEK_STEP_S)}
          disabled={!ready}
        >
          Back 5 s
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => seekBy(SEEK_STEP_S)}
          disabled={!ready}
        >
          Forward 5 s
        </button>
        <span className="player-time" data-testid="player-time">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        <label className="zoom-control">
          <span>Zoom</span>
          <input
            type="range"
            min={ZOOM_MIN}
            max={ZOOM_MAX}
            step={ZOOM_STEP}
            value={zoom}
            disabled={!ready}
            onChange={(event) => setZoom(Number(event.target.value))}
          />
        </label>
      </div>
      <p id="waveform-keys" className="visually-hidden">
        Keyboard: space plays or pauses, left and right arrows seek 5 seconds, plus and minus zoom.
      </p>
    </fieldset>
  );
}
