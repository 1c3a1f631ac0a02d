/**
 * A batch's results side by side: pictures in a grid at the same size, songs as a list with play
 * buttons; each with a favourite toggle, so the keepers are starred in one pass. Shown in the
 * library in place of the gallery (see batch-compare.ts).
 */
import { useEffect, useId, useRef } from 'react';
import { taskTypeLabelOf } from '../../model/task-status.ts';
import { formatClock } from '../../model/time-format.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { SongPlayButton } from '../player/index.ts';
import { useBatchCompare } from './batch-compare.ts';
import { setFavorite } from './library-actions.ts';
import { mainOutput, thumbUrl } from './task-media.ts';
import '../../styles/batches.css';

function FavouriteToggle({ id, title, favorite }: { id: string; title: string; favorite: boolean }) {
  return (
    <button
      type="button"
      className="button button-small compare-favourite"
      aria-pressed={favorite}
      aria-label={`Favourite ${title}`}
      onClick={() => void setFavorite(id, !favorite)}
    >
      <span aria-hidden="true">{favorite ? '★' : '☆'}</span> Favourite
    </button>
  );
}

function CompareItem({ id, index }: { id: string; index: number }) {
  const task = useTasks((s) => s.byId.get(id));
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  if (!task) return null;
  const output = mainOutput(task);
  const saved = output?.state === 'saved';
  const kind = output?.kind ?? (task.family === 'song' ? 'audio' : 'image');
  const label = `${index + 1}. ${task.title}`;
  if (kind === 'audio') {
    return (
      <li className="compare-song" data-testid="compare-item" data-task-id={id} data-favorite={task.favorite}>
        {saved ? <SongPlayButton id={id} title={label} tabbable /> : <span className="compare-song-gap" />}
        <span className="compare-name">{label}</span>
        <span className="muted">
          {saved && output?.durationSeconds
            ? formatClock(output.durationSeconds)
            : taskTypeLabelOf(task.taskType)}
          {saved ? '' : ` · ${task.state}`}
        </span>
        <FavouriteToggle id={id} title={label} favorite={task.favorite} />
      </li>
    );
  }
  const src = saved ? thumbUrl(output, base) : null;
  return (
    <li
      className="compare-picture"
      data-testid="compare-item"
      data-task-id={id}
      data-favorite={task.favorite}
    >
      <button
        type="button"
        className="compare-frame"
        aria-label={`Open ${label}`}
        onClick={() => useUi.getState().openDetail(id)}
      >
        {src ? <img src={src} alt="" draggable={false} /> : <span className="muted">{task.state}</span>}
      </button>
      <div className="compare-caption">
        <span className="compare-name">{label}</span>
        <FavouriteToggle id={id} title={label} favorite={task.favorite} />
      </div>
    </li>
  );
}

export function BatchCompare() {
  const id = useId();
  const taskIds = useBatchCompare((s) => s.taskIds);
  const close = useBatchCompare((s) => s.close);
  const first = useTasks((s) => (taskIds[0] ? s.byId.get(taskIds[0]) : undefined));
  const kept = useTasks((s) => taskIds.filter((t) => s.byId.get(t)?.favorite).length);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const songs = first?.family === 'song';
  return (
    <section className="batch-compare" aria-labelledby={`${id}-h`} data-testid="batch-compare">
      <header className="batch-compare-head">
        <h2 id={`${id}-h`} ref={headingRef} tabIndex={-1}>
          Compare the batch: {first?.title ?? '…'}
        </h2>
        <p className="muted" aria-live="polite" data-testid="compare-kept">
          {taskIds.length} results · {kept} kept (favourites)
        </p>
        <button type="button" className="button button-small" onClick={close}>
          Back to the library
        </button>
      </header>
      <ul className={songs ? 'compare-songs' : 'compare-grid'}>
        {taskIds.map((taskId, index) => (
          <CompareItem key={taskId} id={taskId} index={index} />
        ))}
      </ul>
    </section>
  );
}
