/**
 * The player folded into the composer's Queue bar (issue 21, item 7): in a small window (as the
 * Queue bar's own small-window rule: up to 720 px high or 1000 px wide) the player bar gives up
 * its row while the composer is shown (player.css), and this keeps the song at hand on the Queue
 * bar's second line: play/pause, the title (opens its detail) and the time. The same player state
 * and audio element as the bar; elsewhere it is hidden.
 */
import { formatClock } from '../../model/time-format.ts';
import { usePlayer } from '../../state/player-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { Icon } from './player-icons.tsx';

export function PlayerFold() {
  const taskId = usePlayer((s) => s.taskId);
  const storedTitle = usePlayer((s) => s.title);
  const playing = usePlayer((s) => s.playing);
  const position = usePlayer((s) => s.position);
  const duration = usePlayer((s) => s.duration);
  const title = useTasks((s) => (taskId ? s.byId.get(taskId)?.title : undefined)) ?? storedTitle;
  if (!taskId) return null;
  const showDetail = () => {
    const ui = useUi.getState();
    ui.navigate('library');
    ui.openDetail(taskId);
  };
  return (
    <span className="player-fold" data-testid="player-fold" data-playing={playing ? 'true' : 'false'}>
      <button
        type="button"
        className="player-fold-play"
        aria-label={playing ? 'Pause' : 'Play'}
        onClick={() => usePlayer.getState().toggle()}
      >
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <button type="button" className="player-fold-title" title={title} onClick={showDetail}>
        <span className="visually-hidden">Show details: </span>
        {title}
      </button>
      <span className="player-fold-time">
        {formatClock(position)} / {formatClock(duration)}
      </span>
    </span>
  );
}
