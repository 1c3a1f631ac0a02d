/**
 * One library card: thumbnail (a picture, a video's poster, a 3D model's turntable poster or
 * picture, a song's waveform over its own colour (SongWave.tsx), else the kind's icon), a sound's
 * or video's length, a batch task's place and seed, title, state, cost (money-text.ts:
 * billed once the service said, else the estimate; a flagged figure marked), favourite and
 * selection. A card never holds a live player but while the pointer rests on a video's card (its
 * preview: one card at a time, muted). A video without a poster has one drawn once (poster-maker.ts).
 */
import { type MouseEvent, memo, useEffect, useRef, useState } from 'react';
import { mediaKind } from '../../../../shared/media/index.ts';
import { costWords } from '../../../../shared/task/billed-cost.ts';
import { StateChip } from '../../components/StateChip.tsx';
import { taskCostText } from '../../model/money-text.ts';
import { checkerboardClass } from '../../model/picture-look.ts';
import { taskTypeLabelOf } from '../../model/task-status.ts';
import { formatClock } from '../../model/time-format.ts';
import { variationWords } from '../../model/variation-words.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { SongPlayButton } from '../player/index.ts';
import { isSelected } from './gallery-selection.ts';
import { setFavorite } from './library-actions.ts';
import { requestPoster } from './poster-maker.ts';
import { SongWave } from './SongWave.tsx';
import {
  cardStillOutput,
  fileUrl,
  mainOutput,
  pictureNotShown,
  posterWanted,
  taskMediaKind,
  thumbUrl,
} from './task-media.ts';

/** How long the pointer rests on a video's card before its preview plays. */
const PREVIEW_DELAY_MS = 350;

/** The muted preview of a video card while the pointer rests on it (only then is a player made). */
function useHoverPreview(enabled: boolean) {
  const [previewing, setPreviewing] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  if (!enabled) return { previewing: false, handlers: {} };
  return {
    previewing,
    handlers: {
      onPointerEnter: () => {
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => setPreviewing(true), PREVIEW_DELAY_MS);
      },
      onPointerLeave: () => {
        if (timer.current) clearTimeout(timer.current);
        setPreviewing(false);
      },
    },
  };
}

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
  // the demo library's tasks are never billed (TaskFacts reads the same flag)
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const output = task ? mainOutput(task) : null;
  const kind = task ? taskMediaKind(task) : 'file';
  const { show } = mediaKind(kind);
  const videoUrl = show.card === 'video' && output?.state === 'saved' ? fileUrl(output, base) : null;
  const { previewing, handlers } = useHoverPreview(videoUrl !== null);
  const wanted = task && base ? posterWanted(task) : null;
  const wantedUrl = wanted ? fileUrl(wanted, base) : null;
  useEffect(() => {
    if (wanted && wantedUrl) requestPoster(id, wanted.index, wantedUrl);
  }, [id, wanted, wantedUrl]);
  if (!task) return null;
  // a picture is its own thumbnail; a video shows its poster; a 3D model a still of the same task
  const still = cardStillOutput(task);
  const thumb = still ? thumbUrl(still, base) : null;
  const notShown = pictureNotShown(output);
  const sound = show.card === 'sound';
  // a billed figure far from the published price: marked, both figures in its title
  const flagged = !demo && task.cost?.flagged === true;

  const onCheck = (event: MouseEvent<HTMLInputElement>) => onSelect(id, event.shiftKey);
  // a variation's place in its batch and its seed: cards of one batch told apart
  const variation = variationWords(task);

  // a song's or video's length, shown on the card and so part of its name (what a screen reader says)
  const duration =
    (sound || show.card === 'video') && output?.durationSeconds ? formatClock(output.durationSeconds) : null;
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
        {...handlers}
        tabIndex={tabbable ? 0 : -1}
        aria-label={`Open ${task.title}${duration ? ` ${duration}` : ''}${show.card === 'model' ? ' 3D model' : ''}${variation ? `, ${variation}` : ''}${notShown ? ', too large to show here' : ''}`}
      >
        {thumb ? (
          <img
            src={thumb}
            alt=""
            loading="lazy"
            decoding="async"
            draggable={false}
            className={checkerboardClass(task) || undefined}
          />
        ) : notShown ? (
          <span className="card-not-shown" title={notShown} data-testid="picture-not-shown">
            <span aria-hidden="true">{show.icon}</span>
            <span>Too large to show here</span>
          </span>
        ) : show.card === 'video' ? null : sound && output ? (
          // a song: its waveform over a colour of its own, so songs are told apart at a glance
          <SongWave
            taskId={id}
            index={output.index}
            url={output.state === 'saved' ? fileUrl(output, base) : null}
            size={output.size}
          />
        ) : (
          <span className="card-icon" aria-hidden="true">
            {sound || show.card === 'model' ? show.icon : (FAMILY_ICON[task.family] ?? '◆')}
          </span>
        )}
        {previewing && videoUrl ? (
          <span className="card-preview" aria-hidden="true">
            <video src={videoUrl} muted autoPlay loop playsInline preload="auto" data-testid="card-preview" />
          </span>
        ) : null}
        {kind === 'video' && !previewing ? (
          <span className="card-play" aria-hidden="true">
            ▶
          </span>
        ) : null}
        {duration ? <span className="card-duration">{duration}</span> : null}
        {variation ? (
          <span className="card-variation" data-testid="card-variation">
            {variation}
          </span>
        ) : null}
        {show.card === 'model' ? <span className="card-duration">3D</span> : null}
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
        {/* the kind on a line of its own, two at most: beside the cost it was cut to "Image…" */}
        <span className="card-type" title={taskTypeLabelOf(task)}>
          {taskTypeLabelOf(task)}
        </span>
        <span className="card-meta">
          {task.state === 'saved' ? null : <StateChip state={task.state} />}
          <span
            className="card-cost"
            data-testid="card-cost"
            data-flagged={flagged ? 'true' : undefined}
            title={flagged && task.cost ? costWords(task.cost) : undefined}
          >
            {taskCostText(task, demo)}
          </span>
        </span>
      </div>
    </div>
  );
}

export const TaskCard = memo(TaskCardInner);
