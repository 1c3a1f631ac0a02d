/** The detail view's facts: parameters, ids, cost, timings and the state history. */
import { Fragment, useEffect, useState } from 'react';
import { entryOfTask, type TaskInput, type TaskState } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { StateChip } from '../../components/StateChip.tsx';
import { reportedCostText, usdOrDash } from '../../model/money-text.ts';
import { parameterRows } from '../../model/parameter-display.ts';
import { type LoadedTask, taskTypeLabelOf } from '../../model/task-status.ts';
import { formatDateTime, formatDuration, msBetween } from '../../model/time-format.ts';
import { useStudio } from '../../state/studio-state.ts';
import { outputName, parentCopyOf, shownInputUrl, thumbUrl } from './task-media.ts';

function sizeText(bytes: number | null): string | null {
  if (bytes === null) return null;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return bytes >= 1024 ? `${Math.round(bytes / 1024)} KB` : `${bytes} bytes`;
}

/** An input picture as the page shows it: its URL and what the caption says of it. */
interface ShownInput {
  url: string;
  /** The name of the file the user gave (`party.jpg`), never the library copy's hash name. */
  name: string | null;
  /** The result it was made from, when it is that result's library copy. */
  from: string | null;
  width: number | null;
  height: number | null;
  size: number | null;
}

/**
 * An input picture the page may show, or null (not a picture, or an address the page's policy
 * blocks): a result it was made from by its library copy's thumbnail (task-media.ts parentCopyOf).
 */
function shownInput(
  input: TaskInput | undefined,
  parent: LoadedTask | null,
  base: string | undefined,
): ShownInput | null {
  if (!input) return null;
  const copy = parentCopyOf(input, parent);
  if (copy && parent) {
    const url = thumbUrl(copy, base);
    const { width, height, size } = copy;
    return url
      ? {
          url,
          name: null,
          from: `${outputName(copy, parent.outputs)} of “${parent.title}”`,
          width,
          height,
          size,
        }
      : null;
  }
  if (!input.mime?.startsWith('image/')) return null;
  const url = shownInputUrl(input, null, base, window.location.origin);
  return url
    ? {
        url,
        name: input.name ?? null,
        from: null,
        width: input.width,
        height: input.height,
        size: input.size,
      }
    : null;
}

/** An input image as a thumbnail, loaded through the same media URLs as outputs. */
function InputThumb({ field, shown }: { field: string; shown: ShownInput }) {
  const facts = [
    shown.name,
    shown.from,
    shown.width && shown.height ? `${shown.width} × ${shown.height}` : null,
    sizeText(shown.size),
  ].filter((fact) => fact !== null);
  return (
    <figure className="input-thumb" data-testid="input-thumb" data-field={field}>
      <img src={shown.url} alt={`Input ${field}`} loading="lazy" decoding="async" />
      {facts.length > 0 ? <figcaption className="muted">{facts.join(', ')}</figcaption> : null}
    </figure>
  );
}

/** `parent`: the task it was made from (use-parent-task.ts): an input sent as its result shows as that result. */
export function Parameters({ task, parent }: { task: LoadedTask; parent: LoadedTask | null }) {
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  const rows = parameterRows(task.request.input, entryOfTask(task)?.input.fields);
  const inputOf = (name: string) => task.inputs?.find((input) => input.field === name);
  return (
    <section className="detail-section" aria-labelledby="detail-params">
      <h3 id="detail-params">Parameters</h3>
      <dl className="facts" data-testid="task-parameters">
        <dt>model</dt>
        <dd>{task.model}</dd>
        <dt>task_type</dt>
        <dd>
          {taskTypeLabelOf(task)} <span className="muted">({task.taskType})</span>
        </dd>
        {rows.map((row) => (
          <Fragment key={row.name}>
            <dt>
              {row.label}
              {row.label === row.name ? null : <span className="muted"> ({row.name})</span>}
            </dt>
            <dd className="fact-value">
              {(() => {
                const shown = shownInput(inputOf(row.name), parent, base);
                // a file input by the name it was given, not its library copy's hash name
                return shown ? (
                  <InputThumb field={row.name} shown={shown} />
                ) : (
                  (inputOf(row.name)?.name ?? row.value)
                );
              })()}
            </dd>
          </Fragment>
        ))}
      </dl>
    </section>
  );
}

export function Identity({ task }: { task: LoadedTask }) {
  return (
    <section className="detail-section" aria-labelledby="detail-ids">
      <h3 id="detail-ids">Identifiers</h3>
      <dl className="facts">
        <dt>Task id</dt>
        <dd className="fact-copy">
          <code data-testid="task-id">{task.id}</code> <CopyButton value={task.id} label="Copy task id" />
        </dd>
        <dt>Remote id</dt>
        <dd className="fact-copy">
          {task.remoteId ? (
            <>
              <code data-testid="remote-id">{task.remoteId}</code>{' '}
              <CopyButton value={task.remoteId} label="Copy remote id" />
            </>
          ) : (
            <span className="muted">not sent yet</span>
          )}
        </dd>
        {task.parentId && task.parentOutput === null ? (
          <>
            <dt>Re-run of</dt>
            <dd>
              <code>{task.parentId}</code>
            </dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export function Cost({ task }: { task: LoadedTask }) {
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const usage = reportedCostText(task, demo);
  return (
    <section className="detail-section" aria-labelledby="detail-cost">
      <h3 id="detail-cost">Cost</h3>
      <dl className="facts">
        <dt>Estimate</dt>
        <dd data-testid="cost-estimate-detail">
          {demo
            ? `Demo: not billed${task.estimateMicros !== null ? ` (a real task would cost about ${usdOrDash(task.estimateMicros)})` : ''}`
            : usdOrDash(task.estimateMicros)}
        </dd>
        <dt>Reported by the service</dt>
        <dd data-testid="cost-usage">{usage ?? 'Nothing yet'}</dd>
      </dl>
    </section>
  );
}

function span(from: string | null, to: string | null): string {
  const ms = msBetween(from, to);
  return ms === null ? '—' : formatDuration(ms);
}

export function Timings({ task }: { task: LoadedTask }) {
  const waitFrom = task.remoteCreatedAt ?? task.submittedAt;
  return (
    <section className="detail-section" aria-labelledby="detail-times">
      <h3 id="detail-times">Timings</h3>
      <dl className="facts">
        <dt>Created</dt>
        <dd>{formatDateTime(task.createdAt)}</dd>
        <dt>Submitted</dt>
        <dd>{formatDateTime(task.submittedAt)}</dd>
        <dt>Started</dt>
        <dd>{formatDateTime(task.startedAt)}</dd>
        <dt>Ended</dt>
        <dd>{formatDateTime(task.endedAt)}</dd>
        <dt>Saved</dt>
        <dd>{formatDateTime(task.savedAt)}</dd>
        <dt>Queued here</dt>
        <dd>{span(task.createdAt, task.submittedAt)}</dd>
        <dt>Waiting at service</dt>
        <dd>{span(waitFrom, task.startedAt)}</dd>
        <dt>Generating</dt>
        <dd>{span(task.startedAt, task.endedAt)}</dd>
        <dt>Downloading</dt>
        <dd>{span(task.endedAt, task.savedAt)}</dd>
        <dt>Total</dt>
        <dd>{span(task.createdAt, task.savedAt ?? task.endedAt)}</dd>
      </dl>
    </section>
  );
}

interface HistoryEntry {
  at: string;
  from: string | null;
  to: string;
  detail: string | null;
}

export function StateHistory({ id, updatedAt }: { id: string; updatedAt: string }) {
  const [entries, setEntries] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloaded whenever the task changes
  useEffect(() => {
    let live = true;
    invoke('tasks.events', { id })
      .then((list) => {
        if (live) setEntries(list);
      })
      .catch((err: unknown) => {
        if (live) setError(err instanceof Error ? err.message : String(err));
      });
    return () => {
      live = false;
    };
  }, [id, updatedAt]);
  return (
    <section className="detail-section" aria-labelledby="detail-history">
      <h3 id="detail-history">State history</h3>
      {error ? <p className="field-error">{error}</p> : null}
      {entries === null && !error ? <p className="muted">Loading…</p> : null}
      {entries ? (
        <ol className="history" data-testid="state-history">
          {entries.map((entry) => (
            <li key={`${entry.at}-${entry.to}`}>
              <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>{' '}
              <StateChip state={entry.to as TaskState} />
              {entry.detail ? <span className="history-detail"> {entry.detail}</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}
