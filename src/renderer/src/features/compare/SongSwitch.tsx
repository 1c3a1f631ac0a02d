/**
 * Songs compared A/B: one switch (A, B, and C, D for more) that plays the chosen song from the
 * same position the one heard was at, playing on if it was playing. The songs play in the app's
 * one player (the player bar's audio element: state/player-state.ts), so nothing else plays over
 * them and the bar shows the song heard. Keys 1 to 4 choose too, while the switch has the focus.
 */
import type { KeyboardEvent } from 'react';
import { formatClock } from '../../model/time-format.ts';
import { playerAudio, usePlayer } from '../../state/player-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { songSwitchHint } from './compare-state.ts';

const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** Switches the one player to song `id`, at the position (and play state) of the song heard now. */
export function switchSong(id: string): void {
  const player = usePlayer.getState();
  const heard = player.taskId !== null;
  // the element's own time: the state's position is as old as the last timeupdate (up to 250 ms)
  const at = heard ? playerAudio().currentTime : 0;
  const wasPlaying = player.playing;
  if (!player.playTask(id)) return;
  if (heard) usePlayer.getState().seek(at);
  if (heard && !wasPlaying) usePlayer.getState().pause();
}

export function SongSwitch({ ids }: { ids: readonly string[] }) {
  const byId = useTasks((s) => s.byId);
  const current = usePlayer((s) => s.taskId);
  const playing = usePlayer((s) => s.playing);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const heard = current !== null && ids.includes(current);

  const onKeyDown = (event: KeyboardEvent<HTMLFieldSetElement>) => {
    const n = Number(event.key);
    const id = Number.isInteger(n) ? ids[n - 1] : undefined;
    if (id === undefined) return;
    event.preventDefault();
    switchSong(id);
  };

  return (
    <div className="compare-songs-ab" data-testid="compare-songs">
      <fieldset className="compare-switch" onKeyDown={onKeyDown}>
        <legend className="visually-hidden">Which song is heard</legend>
        {ids.map((id, i) => {
          const task = byId.get(id);
          const on = current === id;
          return (
            <button
              key={id}
              type="button"
              className={`compare-switch-button${on ? ' is-on' : ''}`}
              aria-pressed={on}
              aria-keyshortcuts={String(i + 1)}
              data-testid="compare-song"
              data-task-id={id}
              onClick={() => switchSong(id)}
            >
              <span className="compare-letter" aria-hidden="true">
                {LETTERS[i]}
              </span>
              <span className="compare-song-title">
                <span className="visually-hidden">{LETTERS[i]}: </span>
                {task?.title ?? '…'}
              </span>
            </button>
          );
        })}
      </fieldset>
      <div className="compare-song-controls">
        <button
          type="button"
          className="button button-primary"
          onClick={() => (heard ? usePlayer.getState().toggle() : ids[0] && switchSong(ids[0]))}
        >
          {heard && playing ? 'Pause' : 'Play'}
        </button>
        <span className="muted" data-testid="compare-song-time" aria-live="off">
          {heard ? `${formatClock(position)} / ${formatClock(duration)}` : songSwitchHint(ids.length)}
        </span>
      </div>
      <p className="field-hint">
        Switching keeps the position, so the same moment of each song can be heard in turn. Keys 1 to{' '}
        {ids.length} choose a song while the switch has the focus; the player bar below shows the one heard.
      </p>
    </div>
  );
}
