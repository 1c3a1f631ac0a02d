/**
 * A batch's results side by side: pictures in a grid at the same size, songs as a list with play
 * buttons; each with a favourite toggle, so the keepers are starred in one pass. Shown in the
 * library in place of the gallery (see batch-compare.ts). Escape goes back to where it was
 * opened (Activity's batch group, or a task's detail) with the focus on its "Compare results".
 */
import { useEffect, useId, useRef } from 'react';
import { mediaKind } from '../../../../shared/media/index.ts';
import { checkerboardClass } from '../../model/picture-look.ts';
import { taskTypeLabelOf } from '../../model/task-status.ts';
import { formatClock } from '../../model/time-format.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { SongPlayButton } from '../player/index.ts';
import { type BatchCompareState, useBatchCompare } from './batch-compare.ts';
import { setFavorite } from './library-actions.ts';
import { mainOutput, pictureNotShown, taskMediaKind, thumbUrl } from './task-media.ts';
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
  const label = `${index + 1}. ${task.title}`;
  if (mediaKind(taskMediaKind(task)).show.card === 'sound') {
    return (
      <li className="compare-song" data-testid="compare-item" data-task-id={id} data-favorite={task.favorite}>
        {saved ? <SongPlayButton id={id} title={label} tabbable /> : <span className="compare-song-gap" />}
        <span className="compare-name">{label}</span>
        <span className="muted">
          {saved && output?.durationSeconds ? formatClock(output.durationSeconds) : taskTypeLabelOf(task)}
          {saved ? '' : ` · ${task.state}`}
        </span>
        <FavouriteToggle id={id} title={label} favorite={task.favorite} />
      </li>
    );
  }
  const src = saved ? thumbUrl(output, base) : null;
  const notShown = pictureNotShown(output);
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
        {src ? (
          <img src={src} alt="" draggable={false} className={checkerboardClass(task) || undefined} />
        ) : (
          <span className="muted" title={notShown ?? undefined}>
            {notShown ? 'Too large to show here' : task.state}
          </span>
        )}
      </button>
      <div className="compare-caption">
        <span className="compare-name">{label}</span>
        <FavouriteToggle id={id} title={label} favorite={task.favorite} />
      </div>
    </li>
  );
}

/** The "Compare results" button that opened the batch's compare view, once its view shows it. */
function openerOf(batchId: string, from: NonNullable<BatchCompareState['from']>): HTMLElement | null {
  const scope =
    from.view === 'activity'
      ? `[data-testid="batch-group"][data-batch-id="${CSS.escape(batchId)}"]`
      : from.detailId
        ? `[data-testid="detail-panel"][data-task-id="${CSS.escape(from.detailId)}"] [data-testid="lineage"]`
        : null;
  if (!scope) return null;
  const buttons = document.querySelectorAll<HTMLElement>(`${scope} button`);
  return [...buttons].find((b) => b.textContent?.trim() === 'Compare results') ?? null;
}

/** Closes the compare view, shows the view it was opened from and focuses its opener there. */
function goBack(): void {
  const { batchId, from, close } = useBatchCompare.getState();
  close();
  if (!batchId || !from) return;
  const ui = useUi.getState();
  ui.navigate(from.view);
  ui.openDetail(from.detailId);
  // the view renders (and Activity loads its groups) first: look for the button a few frames
  let frames = 0;
  const look = () => {
    const opener = openerOf(batchId, from);
    if (opener) opener.focus();
    else if (frames++ < 120) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** Escape anywhere but a text field, a modal dialog or the detail (which closes first). */
function useEscapeBack(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      if (useUi.getState().detailId !== null || document.querySelector('dialog[open]')) return;
      const target = event.target;
      if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
      if (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(target.type))
        return;
      event.preventDefault();
      goBack();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function BatchCompare() {
  const id = useId();
  const taskIds = useBatchCompare((s) => s.taskIds);
  const close = useBatchCompare((s) => s.close);
  const first = useTasks((s) => (taskIds[0] ? s.byId.get(taskIds[0]) : undefined));
  const kept = useTasks((s) => taskIds.filter((t) => s.byId.get(t)?.favorite).length);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  useEscapeBack();
  const songs = first ? mediaKind(taskMediaKind(first)).show.card === 'sound' : false;
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
