/** The play button on a song's library card: plays it in the player bar, or pauses it there. */
import { usePlayer } from '../../state/player-state.ts';
import { Icon } from './player-icons.tsx';

export function SongPlayButton({ id, title, tabbable }: { id: string; title: string; tabbable: boolean }) {
  const playingHere = usePlayer((s) => s.taskId === id && s.playing);
  return (
    <button
      type="button"
      className="song-play-button"
      aria-label={playingHere ? `Pause ${title}` : `Play ${title}`}
      data-testid="song-play"
      tabIndex={tabbable ? 0 : -1}
      onClick={() => {
        const player = usePlayer.getState();
        if (playingHere) player.pause();
        else player.playTask(id);
      }}
    >
      <Icon name={playingHere ? 'pause' : 'play'} />
    </button>
  );
}
