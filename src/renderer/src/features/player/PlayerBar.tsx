/**
 * The player bar at the bottom of the window, on one line, shown while a song is loaded in the
 * player state: previous / play-pause / next, the song's title (opens its detail in the
 * library), its waveform (click or drag to seek; a slider for the keyboard) and the time, or
 * instead of both why the song cannot play, Extend (the composer's Extend form with this song, as
 * the library detail's Extend), loop, volume and close. It is outside <main>, so it
 * stays while the user changes views.
 */
import { type ButtonHTMLAttributes, type KeyboardEvent, useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { WAVE_BARS, waveColours } from '../../components/waveform-look.ts';
import { formatClock } from '../../model/time-format.ts';
import { neighbourSong, playerAudio, songOutput, usePlayer } from '../../state/player-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { openFromResult } from '../compose/compose-actions.ts';
import { Icon, type IconName } from './player-icons.tsx';

const SEEK_STEP_S = 5;

/**
 * The loaded song's waveform, drawn by wavesurfer over the player's own audio element (given as
 * its `media`). wavesurfer fetches the file to draw it, then sets the element's source unless the
 * element already plays that URL; so it is made only once the element reports the URL as its
 * current source (from 'loadstart' on), and destroyed in the same turn as the player moves to
 * another song, before an older fetch could finish. The colours follow the theme.
 */
function BarWaveform({ url, title }: { url: string; title: string }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const seek = usePlayer((s) => s.seek);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const audio = playerAudio();
    let wave: WaveSurfer | null = null;
    let themeWatch: MutationObserver | null = null;
    const draw = () => {
      if (wave || audio.currentSrc !== url) return;
      const created = WaveSurfer.create({
        container,
        media: audio,
        url,
        height: 32,
        ...waveColours(),
        ...WAVE_BARS,
        hideScrollbar: true,
      });
      themeWatch = new MutationObserver(() => created.setOptions(waveColours()));
      themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
      wave = created;
    };
    const stop = () => {
      audio.removeEventListener('loadstart', draw);
      themeWatch?.disconnect();
      wave?.destroy();
    };
    audio.addEventListener('loadstart', draw);
    draw();
    const unsubscribe = usePlayer.subscribe((s) => {
      if (s.url !== url) stop();
    });
    return () => {
      unsubscribe();
      stop();
    };
  }, [url]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: position + SEEK_STEP_S,
      ArrowUp: position + SEEK_STEP_S,
      ArrowLeft: position - SEEK_STEP_S,
      ArrowDown: position - SEEK_STEP_S,
      Home: 0,
      End: duration,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    seek(to);
  };

  return (
    <div
      ref={containerRef}
      className="player-bar-wave"
      data-testid="player-bar-wave"
      tabIndex={0}
      role="slider"
      aria-label={`Position in ${title}`}
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(position)}
      aria-valuetext={`${formatClock(position)} of ${formatClock(duration)}`}
      onKeyDown={onKeyDown}
    />
  );
}

/** One of the bar's icon buttons, named by `label` (the icon is hidden from assistive technology). */
function BarButton({
  icon,
  label,
  className,
  ...rest
}: {
  icon: IconName;
  label: string;
  /** A class besides player-bar-button. */
  className?: string;
} & Pick<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled' | 'onClick' | 'title' | 'aria-pressed'>) {
  return (
    <button
      type="button"
      className={className ? `player-bar-button ${className}` : 'player-bar-button'}
      aria-label={label}
      {...rest}
    >
      <Icon name={icon} />
    </button>
  );
}

function LoadedBar({ taskId }: { taskId: string }) {
  const url = usePlayer((s) => s.url);
  const storedTitle = usePlayer((s) => s.title);
  const playing = usePlayer((s) => s.playing);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const volume = usePlayer((s) => s.volume);
  const loop = usePlayer((s) => s.loop);
  const error = usePlayer((s) => s.error);
  const player = usePlayer.getState();
  const title = useTasks((s) => s.byId.get(taskId)?.title) ?? storedTitle;
  const deleted = useTasks((s) => !s.byId.has(taskId));
  const hasPrevious = useTasks((s) => neighbourSong(s.gallery.ids, s.byId, taskId, -1) !== null);
  const hasNext = useTasks((s) => neighbourSong(s.gallery.ids, s.byId, taskId, 1) !== null);
  const percent = Math.round(volume * 100);
  const extendable = useTasks((s) => {
    const task = s.byId.get(taskId);
    return task?.state === 'saved' && songOutput(task) !== null;
  });

  // a song deleted from the library leaves the player
  useEffect(() => {
    if (deleted) usePlayer.getState().close();
  }, [deleted]);

  const showDetail = () => {
    const ui = useUi.getState();
    ui.navigate('library');
    ui.openDetail(taskId);
  };

  const extend = () => {
    const task = useTasks.getState().byId.get(taskId);
    const output = songOutput(task);
    if (task && output) openFromResult('extend', task, output.index);
  };

  return (
    <section
      className="player-bar"
      aria-label="Player"
      data-testid="player-bar"
      data-task-id={taskId}
      data-playing={playing ? 'true' : 'false'}
    >
      <div className="player-bar-buttons">
        <BarButton icon="previous" label="Previous song" disabled={!hasPrevious} onClick={player.previous} />
        <BarButton
          icon={playing ? 'pause' : 'play'}
          label={playing ? 'Pause' : 'Play'}
          className="player-bar-play"
          onClick={player.toggle}
        />
        <BarButton icon="next" label="Next song" disabled={!hasNext} onClick={player.next} />
      </div>
      <button type="button" className="player-bar-title" title={title} onClick={showDetail}>
        <span className="visually-hidden">Show details: </span>
        {title}
      </button>
      {url && !error ? <BarWaveform url={url} title={title} /> : null}
      {error ? (
        <p className="player-bar-error" role="alert" title={error}>
          {error}
        </p>
      ) : (
        <span className="player-bar-time" data-testid="player-bar-time">
          {formatClock(position)} / {formatClock(duration)}
        </span>
      )}
      {extendable ? (
        <button
          type="button"
          className="button button-small player-bar-extend"
          title={`Extend ${title}`}
          onClick={extend}
        >
          Extend
        </button>
      ) : null}
      <BarButton
        icon="loop"
        label="Loop"
        className="player-bar-loop"
        aria-pressed={loop}
        title={loop ? 'Loop: on' : 'Loop: off'}
        onClick={() => player.setLoop(!loop)}
      />
      <label className="player-bar-volume">
        <Icon name={volume === 0 ? 'muted' : 'volume'} />
        <span className="visually-hidden">Volume</span>
        <input
          type="range"
          min={0}
          max={100}
          step={5}
          value={percent}
          aria-valuetext={`${percent}%`}
          onChange={(event) => player.setVolume(Number(event.target.value) / 100)}
        />
      </label>
      <BarButton icon="close" label="Close player" onClick={player.close} />
    </section>
  );
}

export function PlayerBar() {
  const taskId = usePlayer((s) => s.taskId);
  return taskId ? <LoadedBar taskId={taskId} /> : null;
}
