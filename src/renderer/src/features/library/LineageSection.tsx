/**
 * The detail panel's lineage: "Made from" (the chain up, nearest first, each a link opening that
 * task's detail, with which of its outputs was used) and "Made into" (the tasks made from this
 * one), read with tasks.lineage; a task whose parent was deleted says so, with the parent's title
 * the library kept (Task.parentGone). A task made from a result says how that result was sent to
 * the service (its link, or the file in the library), from its queued event. A task of a batch
 * offers "Compare results".
 */
import { useEffect, useId, useState } from 'react';
import {
  mediaKind,
  RETRIABLE_STATES,
  type TaskLineage,
  type TaskLineageItem,
} from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { mediaUrl } from '../../model/media-url.ts';
import { type LoadedTask, stateLabel, taskTypeLabelOf } from '../../model/task-status.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { openBatchCompare } from './batch-compare.ts';
import '../../styles/batches.css';

/** How `child` used its parent: output n, or its inputs again (a re-run or a variation). */
function usedText(parentOutput: number | null): string {
  return parentOutput === null ? 'its inputs again' : `output ${parentOutput + 1}`;
}

function LineageLink({ item, note }: { item: TaskLineageItem; note: string }) {
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  const thumb = item.thumbPath && base ? mediaUrl(base, item.thumbPath) : null;
  return (
    <li className="lineage-item" data-testid="lineage-item" data-task-id={item.id}>
      {thumb ? <img src={thumb} alt="" className="lineage-thumb" /> : <span className="lineage-thumb" />}
      <span className="lineage-text">
        <button
          type="button"
          className="button button-link"
          onClick={() => useUi.getState().openDetail(item.id)}
        >
          {item.title}
        </button>
        <span className="muted">
          {' '}
          {taskTypeLabelOf(item)} · {stateLabel(item.state)} · {note}
        </span>
      </span>
    </li>
  );
}

/** A task whose parent was deleted, from the title the library kept (Task.parentGone). */
function deletedParentText(task: LoadedTask): string | null {
  if (task.parentGone === null) return null;
  return task.parentOutput === null
    ? `Made again from the inputs of “${task.parentGone}”, a task since deleted.`
    : `Made from output ${task.parentOutput + 1} of “${task.parentGone}”, a task since deleted.`;
}

/** One note of the queued event in plain words: `audio: output 0 of "T" sent as the service's URL`. */
function sentText(note: string): string | null {
  const match = /^(\w+): output \d+ of ".*" sent (as the service's URL|from the library file)/.exec(
    note.trim(),
  );
  if (!match) return null;
  // the field names its kind: audio, style_audio; video, target_video; anything else a picture
  const field = match[1] ?? '';
  const kind = field.includes('audio') ? 'audio' : field.includes('video') ? 'video' : 'image';
  const what = `The ${mediaKind(kind).words.result}`;
  return match[2]?.startsWith('as')
    ? `${what} was sent as the service's link`
    : `${what} was sent from the file in your library`;
}

/** How the results a task was made from were sent (its queued event's notes), in plain words. */
function useSentSources(task: LoadedTask): string[] {
  const [sent, setSent] = useState<string[]>([]);
  const fromResult = task.parentId !== null && task.parentOutput !== null;
  useEffect(() => {
    setSent([]);
    if (!fromResult) return;
    let live = true;
    invoke('tasks.events', { id: task.id })
      .then((events) => {
        const note = events.find((e) => e.to === 'queued' && e.detail)?.detail ?? '';
        const lines = note.split('; ').flatMap((part) => sentText(part) ?? []);
        if (live) setSent(lines);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [task.id, fromResult]);
  return sent;
}

export function LineageSection({ task }: { task: LoadedTask }) {
  const id = useId();
  const [lineage, setLineage] = useState<TaskLineage | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again when the task changes (a child may have been made, its parent deleted)
  useEffect(() => {
    let live = true;
    invoke('tasks.lineage', { id: task.id })
      .then((answer) => {
        if (live) {
          setLineage(answer);
          setError(null);
        }
      })
      .catch((err: unknown) => {
        if (live) setError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      live = false;
    };
  }, [task.id, task.updatedAt, task.parentId]);

  const gone = deletedParentText(task);
  // a failure's newest re-run: the retry it is known by
  const retry = RETRIABLE_STATES.includes(task.state)
    ? (lineage?.madeInto.filter((item) => item.parentOutput === null).at(-1) ?? null)
    : null;
  const sent = useSentSources(task);
  const nothing =
    lineage !== null && lineage.madeFrom.length === 0 && lineage.madeInto.length === 0 && !task.batchId;
  if (nothing && gone === null) return null;
  return (
    <section className="detail-section lineage" aria-labelledby={`${id}-h`} data-testid="lineage">
      <h3 id={`${id}-h`}>Lineage</h3>
      {error ? <p className="field-error">{error}</p> : null}
      {lineage === null && !error ? <p className="muted">Loading…</p> : null}
      {lineage && lineage.madeFrom.length > 0 ? (
        <>
          <h4 className="lineage-heading">Made from</h4>
          <ol className="lineage-list" data-testid="made-from">
            {lineage.madeFrom.map((item, i) => {
              // what the task below it in the chain (this task, then each parent) took from it
              const child = i === 0 ? task.parentOutput : (lineage.madeFrom[i - 1]?.parentOutput ?? null);
              return <LineageLink key={item.id} item={item} note={`used ${usedText(child)}`} />;
            })}
          </ol>
          {sent.map((line) => (
            <p key={line} className="muted" data-testid="sent-source">
              {line}.
            </p>
          ))}
        </>
      ) : null}
      {gone ? (
        <p className="muted" data-testid="parent-deleted">
          {gone}
        </p>
      ) : null}
      {retry ? (
        <p data-testid="retried-as" data-retry-id={retry.id}>
          Retried as{' '}
          <button
            type="button"
            className="button button-link"
            onClick={() => useUi.getState().openDetail(retry.id)}
          >
            “{retry.title}”
          </button>{' '}
          <span className="muted">({stateLabel(retry.state).toLowerCase()})</span>
        </p>
      ) : null}
      {lineage && lineage.madeInto.length > 0 ? (
        <>
          <h4 className="lineage-heading">Made into</h4>
          <ul className="lineage-list" data-testid="made-into">
            {lineage.madeInto.map((item) => (
              <LineageLink key={item.id} item={item} note={`from ${usedText(item.parentOutput)}`} />
            ))}
          </ul>
        </>
      ) : null}
      {task.batchId ? (
        <p className="lineage-batch">
          Part of a batch.{' '}
          <button
            type="button"
            className="button button-small"
            onClick={() => void openBatchCompare(task.batchId ?? '')}
          >
            Compare results
          </button>
        </p>
      ) : null}
    </section>
  );
}
