/**
 * A batch in Activity: one group with its progress ("7 of 12 done, 1 failed" and a bar), its
 * failures listed, "Cancel the rest" (the tasks still only on this computer, with the count said
 * after), "Compare results", and its tasks' own rows when expanded. The counts, total and price
 * are the store's summary of the whole batch (tasks.batches), so tasks the window has not loaded
 * count too (kept across remounts in batch-summaries.ts); the failures and rows are the loaded
 * tasks'.
 */
import { memo, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import {
  type BatchCancelView,
  type BatchSummary,
  batchCancelText,
  batchCostOf,
} from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import type { ConnectionState } from '../../model/connection-state.ts';
import { batchCostText } from '../../model/money-text.ts';
import { asSentence } from '../../model/studio-error.ts';
import { retryOf } from '../../model/task-retries.ts';
import { type LoadedTask, taskTypeLabelOf } from '../../model/task-status.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { openBatchCompare } from '../library/batch-compare.ts';
import { ActivityRow } from './ActivityRow.tsx';
import { heldSummary, startSummaryRead, subscribeToSummaries, takeSummaryAnswer } from './batch-summaries.ts';
import '../../styles/batches.css';

/** The batch's held summary, re-rendering when a newer one is taken. */
function useHeldSummary(batchId: string): BatchSummary | null {
  return useSyncExternalStore(subscribeToSummaries, () => heldSummary(batchId));
}

/** A batch's tasks counted by how far they got. */
interface BatchProgress {
  total: number;
  done: number;
  failed: number;
  queued: number;
  cancelled: number;
  /** With the service or being downloaded. */
  running: number;
  /** Waiting for the user's decision: the create may have reached the service. */
  uncertain: number;
}

function batchProgress(tasks: readonly LoadedTask[]): BatchProgress {
  const p: BatchProgress = {
    total: tasks.length,
    done: 0,
    failed: 0,
    queued: 0,
    cancelled: 0,
    running: 0,
    uncertain: 0,
  };
  for (const task of tasks) {
    if (task.state === 'saved') p.done += 1;
    else if (task.state === 'failed' || task.state === 'expired') p.failed += 1;
    else if (task.state === 'queued') p.queued += 1;
    else if (task.state === 'cancelled') p.cancelled += 1;
    else if (task.state === 'uncertain') p.uncertain += 1;
    else p.running += 1;
  }
  return p;
}

/** "7 of 12 done, 1 failed, 2 cancelled". */
function progressText(p: BatchProgress): string {
  const parts = [`${p.done} of ${p.total} done`];
  if (p.failed > 0) parts.push(`${p.failed} failed`);
  if (p.cancelled > 0) parts.push(`${p.cancelled} cancelled`);
  return parts.join(', ');
}

/** "1 running, 2 waiting here, 1 needs your decision"; empty when nothing is left to do. */
function leftText(p: BatchProgress): string {
  const parts: string[] = [];
  if (p.running + p.queued > 0) parts.push(`${p.running} running, ${p.queued} waiting here`);
  if (p.uncertain > 0) parts.push(`${p.uncertain} ${p.uncertain === 1 ? 'needs' : 'need'} your decision`);
  return parts.join(', ');
}

/** What cancelling did, as a sentence (the CLI's `cancel --batch` says the same). */
function cancelText(view: BatchCancelView): string {
  return `${asSentence(batchCancelText(view))}.`;
}

/** The store's counts of a batch as the group shows them. */
function progressOfSummary(summary: BatchSummary): BatchProgress {
  return {
    total: summary.total,
    done: summary.done,
    failed: summary.failed,
    queued: summary.queued,
    cancelled: summary.cancelled,
    running: summary.active,
    uncertain: summary.uncertain,
  };
}

/** The shortest time between two reads of a batch's summary while its tasks change. */
const SUMMARY_DELAY_MS = 250;

/**
 * The store's summary of the batch (tasks.batches): every task of it counts, loaded in the window
 * or not. Starts from the summary read last time the group was shown (batch-summaries.ts), then
 * read when the group appears, and again when the states of its loaded tasks change (a change
 * event loads the task it is about, so any task of the batch that changes is among them):
 * changes in a burst are read once, SUMMARY_DELAY_MS after the last read at the soonest. The
 * newest read's answer wins, whichever effect started it. `refresh` reads it now. Null until the
 * first answer, or when the last one failed.
 */
function useBatchSummary(
  batchId: string,
  tasks: readonly LoadedTask[],
): { summary: BatchSummary | null; refresh: () => void } {
  const summary = useHeldSummary(batchId);
  const [asked, setAsked] = useState(0);
  const lastRead = useRef(0);
  const states = tasks.map((t) => `${t.id}:${t.state}`).join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `states` and `asked` say when to read again
  useEffect(() => {
    const wait = Math.max(0, lastRead.current + SUMMARY_DELAY_MS - Date.now());
    const timer = setTimeout(() => {
      lastRead.current = Date.now();
      const read = startSummaryRead();
      invoke('tasks.batches', { batchId })
        .then((found) => takeSummaryAnswer(batchId, read, found[0] ?? null))
        .catch(() => takeSummaryAnswer(batchId, read, null));
    }, wait);
    return () => clearTimeout(timer);
  }, [batchId, states, asked]);
  return {
    summary,
    refresh: () => {
      lastRead.current = 0;
      setAsked((n) => n + 1);
    },
  };
}

interface GroupProps {
  batchId: string;
  tasks: readonly LoadedTask[];
  now: number;
  connection: ConnectionState;
  demo: boolean;
  /** The retries the window knows, by the failure they re-ran (task-retries.ts). */
  retries: ReadonlyMap<string, LoadedTask[]>;
}

/** "Queued the 2 failed tasks again, as a new batch" (and what was left out). */
function retriedText(count: number, skipped: number): string {
  const what = count === 1 ? 'the failed task' : `the ${count} failed tasks`;
  const left = skipped > 0 ? ` (${skipped} retried before ${skipped === 1 ? 'was' : 'were'} left out)` : '';
  return `Queued ${what} again, as a new batch${left}.`;
}

function BatchGroupInner({ batchId, tasks, now, connection, demo, retries }: GroupProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [cancelNote, setCancelNote] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const { summary, refresh } = useBatchSummary(batchId, tasks);
  const first = tasks[0];
  if (!first) return null;
  // the store's counts once known; the loaded tasks' until then
  const p = summary ? progressOfSummary(summary) : batchProgress(tasks);
  const ended = p.done + p.failed + p.cancelled;
  const failures = tasks.filter((t) => t.state === 'failed' || t.state === 'expired');
  const cost = summary ? summary.cost : batchCostOf(tasks);
  // failures not retried yet: the store's count once known, the loaded tasks' until then
  const toRetry = summary
    ? summary.failed - summary.retried
    : failures.filter((t) => retryOf(t, retries) === null).length;
  const title = summary?.title ?? first.title;
  const text = progressText(p);
  const left = leftText(p);

  const cancelRest = async () => {
    setCancelling(true);
    try {
      const view = await invoke('tasks.cancelBatch', { batchId });
      const note = cancelText(view);
      setCancelNote(note);
      useUi.getState().pushToast('success', note);
      // the events bring the cancelled tasks; a fresh read makes the group current at once
      const fresh = await Promise.all(tasks.map((t) => invoke('tasks.get', { id: t.id })));
      useTasks.getState().upsert(fresh.filter((t) => t !== null));
      refresh();
    } catch (err) {
      toastError(err);
    } finally {
      setCancelling(false);
    }
  };

  const retryFailed = async () => {
    setRetrying(true);
    try {
      const view = await invoke('tasks.retryFailed', { batchId });
      useTasks.getState().upsert(view.tasks);
      useUi.getState().pushToast('success', retriedText(view.tasks.length, view.alreadyRetried));
      refresh();
    } catch (err) {
      toastError(err);
      refresh();
    } finally {
      setRetrying(false);
    }
  };

  return (
    <section
      className="batch-group"
      data-testid="batch-group"
      data-batch-id={batchId}
      aria-labelledby={`${id}-title`}
    >
      <div className="activity-head">
        <span className="chip chip-info">Batch</span>
        <h3 className="activity-title" id={`${id}-title`}>
          {title}
          {p.total > 1 ? <span className="muted"> and {p.total - 1} more</span> : null}
        </h3>
        <span className="activity-type">
          {taskTypeLabelOf(summary && summary.taskType !== first.taskType ? summary : first)}
        </span>
        <span
          className="activity-cost"
          title={
            demo
              ? 'Demo mode: nothing is billed'
              : "What the batch's tasks cost, as their rows say: charged, pending until they end, not billed"
          }
          data-testid="batch-cost"
        >
          {batchCostText(cost, demo)}
        </span>
      </div>
      <div className="progress-line">
        <div
          className="progress batch-progress"
          role="progressbar"
          aria-label={`Progress of the batch ${title}`}
          aria-valuemin={0}
          aria-valuemax={p.total}
          aria-valuenow={ended}
          aria-valuetext={text}
        >
          <div className="progress-fill" style={{ transform: `scaleX(${p.total ? p.done / p.total : 0})` }} />
          {p.failed > 0 ? (
            <div
              className="batch-progress-failed"
              style={{ left: `${(p.done / p.total) * 100}%`, width: `${(p.failed / p.total) * 100}%` }}
            />
          ) : null}
        </div>
        <span className="progress-text" data-testid="batch-progress">
          {text}
          {left ? <span className="muted"> · {left}</span> : null}
        </span>
      </div>
      {failures.length > 0 ? (
        <ul className="batch-failures" data-testid="batch-failures" aria-label="Failures">
          {failures.map((t) => (
            <li key={t.id}>
              <strong>{t.title}</strong>:{' '}
              {t.error ? asSentence(t.error.message) : 'it expired at the service'}
              {retryOf(t, retries) ? <span className="muted"> Retried.</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {cancelNote ? (
        <p className="activity-explain" data-testid="batch-cancelled" role="status">
          {cancelNote}
        </p>
      ) : null}
      <div className="activity-actions">
        <button
          type="button"
          className="button button-small"
          aria-expanded={open}
          aria-controls={`${id}-tasks`}
          onClick={() => setOpen(!open)}
        >
          {open
            ? 'Hide its tasks'
            : tasks.length < p.total
              ? `Show the ${tasks.length} of its ${p.total} tasks listed here`
              : `Show its ${tasks.length} tasks`}
        </button>
        {p.queued > 0 ? (
          <button
            type="button"
            className="button button-small"
            disabled={cancelling}
            onClick={() => void cancelRest()}
          >
            Cancel the rest
          </button>
        ) : null}
        {toRetry > 0 ? (
          <button
            type="button"
            className="button button-small button-primary"
            disabled={retrying}
            onClick={() => void retryFailed()}
            title="Queues each failed task of this batch once more, as a new batch"
          >
            {toRetry === 1 ? 'Retry the failed one' : `Retry the ${toRetry} failed ones`}
          </button>
        ) : null}
        {p.done > 0 ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => void openBatchCompare(batchId)}
          >
            Compare results
          </button>
        ) : null}
      </div>
      <div id={`${id}-tasks`} className="batch-tasks" hidden={!open}>
        {open
          ? tasks.map((task) => (
              <ActivityRow
                key={task.id}
                task={task}
                now={now}
                connection={connection}
                demo={demo}
                retry={retryOf(task, retries)}
              />
            ))
          : null}
      </div>
    </section>
  );
}

export const BatchGroup = memo(BatchGroupInner);
