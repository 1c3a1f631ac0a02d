/**
 * One task in Activity: state (or what it waits for while the service is out of reach), elapsed
 * against expected time, cost, error, and what can be done: a failure can be fixed and tried
 * again in the composer, or dismissed from the list.
 */

import { type ButtonHTMLAttributes, memo, useState } from 'react';
import { REMOTE_ACTIVE_STATES } from '../../../../shared/index.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import type { ConnectionState } from '../../model/connection-state.ts';
import { taskCostText, usdOrDash } from '../../model/money-text.ts';
import { asSentence } from '../../model/studio-error.ts';
import { isLiveRetry } from '../../model/task-retries.ts';
import {
  type LoadedTask,
  progressOf,
  rowStatusOf,
  stateLabel,
  taskTypeLabelOf,
} from '../../model/task-status.ts';
import { formatAgo, formatDuration } from '../../model/time-format.ts';
import { dismissFailure, fixAndRetry, openInLibrary, runTaskAction, settleTask } from './activity-actions.ts';

/**
 * An uncertain task whose create the service's history may hold several times: its tasks that
 * could be this one, each with when it was created and a button to take it.
 */
function SettlementChoice({ task }: { task: LoadedTask }) {
  const candidates = task.settlement?.outcome === 'choose' ? task.settlement.candidates : [];
  if (candidates.length === 0) return null;
  return (
    <div className="activity-explain" data-testid="settlement-choice">
      Which of the service’s tasks is this one?
      <ul className="settlement-candidates">
        {candidates.map((c) => (
          <li key={c.remoteId}>
            <code>{c.remoteId}</code>{' '}
            <span className="muted">
              created {c.createdAt ? new Date(c.createdAt).toLocaleString() : 'at an unknown time'}
            </span>{' '}
            <RowButton
              label="This one"
              aria-label={`Take the service's task ${c.remoteId} as this one`}
              onClick={() => void settleTask(task.id, c.remoteId)}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProgressLine({ task, now }: { task: LoadedTask; now: number }) {
  const progress = progressOf(task, now);
  const expected = progress.expectedMs ? ` of about ${formatDuration(progress.expectedMs)}` : '';
  const text =
    task.state === 'queued'
      ? `Waiting ${formatDuration(progress.elapsedMs)}`
      : `${formatDuration(progress.elapsedMs)}${expected}`;
  return (
    <div className="progress-line">
      {progress.ratio !== null ? (
        <div
          className="progress"
          role="progressbar"
          aria-label={`Progress of ${task.title}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress.ratio * 100)}
          aria-valuetext={text}
        >
          <div
            className="progress-fill"
            style={{ transform: `scaleX(${Math.round(progress.ratio * 100) / 100})` }}
          />
        </div>
      ) : null}
      <span className="progress-text">{text}</span>
    </div>
  );
}

const isRunning = (task: LoadedTask) =>
  ['submitting', 'pending', 'staged', 'processing', 'completed', 'downloading', 'queued'].includes(
    task.state,
  );

/** One of the row's small buttons; `primary` marks the step most likely wanted. */
function RowButton({
  label,
  primary = false,
  onClick,
  ...rest
}: { label: string; primary?: boolean; onClick(): void } & Pick<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'aria-label' | 'title'
>) {
  return (
    <button
      type="button"
      className={primary ? 'button button-small button-primary' : 'button button-small'}
      onClick={onClick}
      {...rest}
    >
      {label}
    </button>
  );
}

interface RowProps {
  task: LoadedTask;
  now: number;
  connection: ConnectionState;
  /** The demo library's tasks: nothing is billed. */
  demo: boolean;
  /** The task that retried this failure (its newest re-run), if any. */
  retry?: LoadedTask | null;
}

/** "Retried as “Title” (Saved)": a link to the retry, so the failure is not paid for twice. */
export function RetriedAs({ retry }: { retry: LoadedTask }) {
  return (
    <p className="activity-explain" data-testid="retried-as" data-retry-id={retry.id}>
      Retried as{' '}
      <button type="button" className="button button-link" onClick={() => openInLibrary(retry.id)}>
        “{retry.title}”
      </button>{' '}
      <span className="muted">({stateLabel(retry.state).toLowerCase()})</span>
      {isLiveRetry(retry.state) ? null : <span className="muted">; it did not succeed either.</span>}
    </p>
  );
}

function ActivityRowInner({ task, now, connection, demo, retry = null }: RowProps) {
  const [confirming, setConfirming] = useState(false);
  const status = rowStatusOf(task, connection);
  const explanation = status.explanation;
  // the service holds it: when something is wrong (e.g. answers it could not read), it can be asked about now
  const atService = (REMOTE_ACTIVE_STATES as readonly string[]).includes(task.state);
  return (
    <article
      className={`activity-row activity-${task.state}`}
      data-testid="activity-row"
      data-task-id={task.id}
      data-state={task.state}
      aria-label={task.title}
    >
      <div className="activity-head">
        <span className={`chip chip-${status.tone}`} data-testid="state-chip" data-state={task.state}>
          {status.label}
        </span>
        <h3 className="activity-title">{task.title}</h3>
        <span className="activity-type">{taskTypeLabelOf(task)}</span>
        <span
          className="activity-cost"
          title={
            demo
              ? 'Demo mode: nothing is billed'
              : 'Cost: what the service charged, or the estimate until it says'
          }
        >
          {taskCostText(task, demo)}
        </span>
      </div>
      {isRunning(task) && status.showProgress ? <ProgressLine task={task} now={now} /> : null}
      {task.state === 'failed' || task.state === 'uncertain' || task.state === 'expired' ? (
        <p
          className={task.state === 'failed' ? 'activity-error' : 'activity-explain'}
          data-testid="activity-message"
        >
          {task.state === 'failed' && task.error ? asSentence(task.error.message) : explanation}
        </p>
      ) : (
        <p className="activity-explain">
          {explanation} <span className="muted">Created {formatAgo(task.createdAt, now)}.</span>
        </p>
      )}
      {task.state === 'uncertain' ? <SettlementChoice task={task} /> : null}
      {retry ? <RetriedAs retry={retry} /> : null}
      {atService && task.error ? (
        <p className="activity-explain" data-testid="activity-problem">
          {asSentence(task.error.message)}
        </p>
      ) : null}
      <div className="activity-actions">
        {task.state === 'queued' ? (
          <RowButton label="Cancel" onClick={() => void runTaskAction('tasks.cancel', task.id)} />
        ) : null}
        {task.state === 'uncertain' ? (
          <>
            <RowButton
              label="Submit again"
              // the main action only when the service's history says it never made the task
              // (nothing to bill twice); otherwise a plain button that asks first
              primary={task.settlement?.outcome === 'not-created'}
              onClick={() =>
                // the service's history shows it never created it: nothing to bill twice
                task.settlement?.outcome === 'not-created'
                  ? void runTaskAction('tasks.resubmit', task.id)
                  : setConfirming(true)
              }
            />
            <RowButton label="Discard" onClick={() => void runTaskAction('tasks.discard', task.id)} />
          </>
        ) : null}
        {atService && task.error ? (
          <RowButton label="Check now" onClick={() => void runTaskAction('tasks.checkNow', task.id)} />
        ) : null}
        {task.outputs.some((o) => o.state === 'failed') ? (
          <RowButton
            label="Retry download"
            onClick={() => void runTaskAction('tasks.retryDownloads', task.id)}
          />
        ) : null}
        {task.state === 'failed' ? (
          <>
            {retry && isLiveRetry(retry.state) ? null : (
              <RowButton label="Fix & retry" primary onClick={() => void fixAndRetry(task)} />
            )}
            <RowButton
              label="Dismiss"
              aria-label={`Dismiss ${task.title}`}
              title="Take it off this list (it stays in the library)"
              onClick={() => dismissFailure(task)}
            />
          </>
        ) : null}
        {task.state === 'saved' || task.state === 'failed' || task.state === 'expired' ? (
          <RowButton label="Open in Library" onClick={() => openInLibrary(task.id)} />
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Submit this task again?"
          message={
            <p>
              The service may already have received “<bdi>{task.title}</bdi>”.{' '}
              {demo
                ? 'Submitting it again may run it twice (a demo task: nothing is billed).'
                : `Submitting it again may be billed twice${
                    task.estimateMicros !== null ? ` (about ${usdOrDash(task.estimateMicros)} more)` : ''
                  }.`}
            </p>
          }
          confirmLabel="Submit again"
          danger={!demo}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void runTaskAction('tasks.resubmit', task.id);
          }}
        />
      ) : null}
    </article>
  );
}

export const ActivityRow = memo(ActivityRowInner);
