/**
 * An audio player drawn as a waveform (wavesurfer.js): play/pause, seek by clicking the waveform,
 * zoom, and the keyboard (space play/pause, arrows seek ±5 s, + and - zoom) while it has focus.
 * It plays one at a time with the player bar (starting one pauses the other), at the bar's volume.
 */
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { formatClock } from '../model/time-format.ts';
import { playOneAtATime, usePlayer } from '../state/player-state.ts';
import { ProblemMessage } from './ProblemMessage.tsx';
import { WAVE_BARS, waveColours } from './waveform-look.ts';

const SEEK_STEP_S = 5;
const ZOOM_MIN = 0;
const ZOOM_MAX = 400;
const ZOOM_STEP = 25;

export function WaveformPlayer({ url, title }: { url: string; title: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const waveRef = useRef<WaveSurfer | null>(null);
  const [ready, setReady] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    setReady(false);
    setPlaying(false);
    setTime(0);
    setError(null);
    const wave = WaveSurfer.create({
      container,
      url,
      height: 96,
      ...waveColours(),
      ...WAVE_BARS,
    });
    waveRef.current = wave;
    const media = wave.getMediaElement();
    wave.setVolume(usePlayer.getState().volume);
    const offs = [
      media ? playOneAtATime(media) : () => undefined,
      usePlayer.subscribe((s, before) => {
        if (s.volume !== before.volume) wave.setVolume(s.volume);
      }),
      wave.on('ready', (d) => {
        setDuration(d);
        setReady(true);
      }),
      wave.on('play', () => setPlaying(true)),
      wave.on('pause', () => setPlaying(false)),
      wave.on('finish', () => setPlaying(false)),
      wave.on('timeupdate', (t) => setTime(t)),
      wave.on('error', (e) => setError(`Could not load the audio: ${e.message}`)),
    ];
    return () => {
      for (const off of offs) off();
      wave.destroy();
      waveRef.current = null;
    };
  }, [url]);

  useEffect(() => {
    if (ready) waveRef.current?.zoom(zoom);
  }, [zoom, ready]);

  const playPause = () => {
    void waveRef.current?.playPause().catch((e: unknown) => setError(`Could not play: ${String(e)}`));
  };
  const seekBy = (seconds: number) => {
    const wave = waveRef.current;
    if (!wave || !ready) return;
    wave.setTime(Math.min(Math.max(0, wave.getCurrentTime() + seconds), wave.getDuration()));
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
