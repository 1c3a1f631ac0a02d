/** One library card: thumbnail (or an audio/video sign), title, state, favourite and selection. */
import { type MouseEvent, memo } from 'react';
import { mediaKind } from '../../../../shared/media/index.ts';
import { StateChip } from '../../components/StateChip.tsx';
import { taskTypeLabelOf } from '../../model/task-status.ts';
import { formatClock } from '../../model/time-format.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { SongPlayButton } from '../player/index.ts';
import { isSelected } from './gallery-selection.ts';
import { setFavorite } from './library-actions.ts';
import { mainOutput, pictureNotShown, taskMediaKind, thumbUrl } from './task-media.ts';

const FAMILY_ICON: Record<string, string> = { song: '♪', 'face-swap': '☺', 'image-edit': '✎', other: '◆' };

export interface TaskCardProps {
  id: string;
  onSelect(id: string, range: boolean): void;
  /** The gallery's one tab stop (roving tabindex): only this card's controls are tabbable. */
  tabbable: boolean;
}

function TaskCardInner({ id, onSelect, tabbable }: TaskCardProps) {
  const task = useTasks((s) => s.byId.get(id));
  const selected = useUi((s) => isSelected(s, id));
  const open = useUi((s) => s.detailId === id);
  const openDetail = useUi((s) => s.openDetail);
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  if (!task) return null;
  const output = mainOutput(task);
  const kind = taskMediaKind(task);
  const thumb = output?.state === 'saved' ? thumbUrl(output, base) : null;
  const notShown = pictureNotShown(output);
  const { show } = mediaKind(kind);
  const sound = show.card === 'sound';
  // a picture is its own thumbnail; a kind with a poster shows the one saved beside it
  const showImage =
    thumb && (show.thumbnail === 'picture' || (show.thumbnail === 'poster' && output?.thumbPath));

  const onCheck = (event: MouseEvent<HTMLInputElement>) => onSelect(id, event.shiftKey);

  // a song's length, shown on the card and so part of its name (what a screen reader says)
  const duration = sound && output?.durationSeconds ? formatClock(output.durationSeconds) : null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an item of the gallery's role=list (see GalleryGrid)
    <div
      role="listitem"
      className={`card${selected ? ' card-selected' : ''}${open ? ' card-open' : ''}`}
      data-testid="task-card"
      data-task-id={id}
      data-state={task.state}
      data-kind={kind}
      data-favorite={task.favorite ? 'true' : 'false'}
    >
      <button
        type="button"
        className={`card-thumb card-thumb-${kind}`}
        onClick={() => openDetail(id)}
        tabIndex={tabbable ? 0 : -1}
        aria-label={`Open ${task.title}${duration ? ` ${duration}` : ''}${notShown ? ', too large to show here' : ''}`}
      >
        {showImage ? (
          <img src={thumb} alt="" loading="lazy" decoding="async" draggable={false} />
        ) : notShown ? (
          <span className="card-not-shown" title={notShown} data-testid="picture-not-shown">
            <span aria-hidden="true">{show.icon}</span>
            <span>Too large to show here</span>
          </span>
        ) : (
          <span className="card-icon" aria-hidden="true">
            {sound ? show.icon : (FAMILY_ICON[task.family] ?? '◆')}
          </span>
        )}
        {kind === 'video' ? (
          <span className="card-play" aria-hidden="true">
            ▶
          </span>
        ) : null}
        {duration ? <span className="card-duration">{duration}</span> : null}
      </button>
      {sound && output?.state === 'saved' ? (
        <SongPlayButton id={id} title={task.title} tabbable={tabbable} />
      ) : null}
      <input
        type="checkbox"
        className="card-check"
        checked={selected}
        onClick={onCheck}
        onChange={() => undefined}
        aria-label={`Select ${task.title}`}
        tabIndex={tabbable ? 0 : -1}
      />
      <button
        type="button"
        className={`card-fav${task.favorite ? ' card-fav-on' : ''}`}
        aria-pressed={task.favorite}
        aria-label={`Favourite ${task.title}`}
        tabIndex={tabbable ? 0 : -1}
        onClick={() => void setFavorite(id, !task.favorite)}
      >
        <span aria-hidden="true">{task.favorite ? '★' : '☆'}</span>
      </button>
      <div className="card-caption">
        <span className="card-title" title={task.title}>
          {task.title}
        </span>
        <span className="card-meta">
          {task.state === 'saved' ? (
            <span className="card-type">{taskTypeLabelOf(task)}</span>
          ) : (
            <StateChip state={task.state} />
          )}
        </span>
      </div>
    </div>
  );
}

export const TaskCard = memo(TaskCardInner);
