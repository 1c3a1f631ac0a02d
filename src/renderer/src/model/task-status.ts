/**
 * What the UI says about a task's state: plain-word labels, tones, progress against the expected
 * time, and which tasks the Activity view lists. Pure.
 */
import {
  ENGINE_WORK_STATES,
  entryOfTask,
  FINISHED_STATES,
  REMOTE_ACTIVE_STATES,
  RUNNING_STATES,
  TASK_TYPES,
  type Task,
  type TaskListItem,
  type TaskState,
} from '../../../shared/index.ts';
import { type ConnectionState, serviceAt } from './connection-state.ts';
import { asSentence } from './studio-error.ts';

/** A task as the window holds it: from a list page (no `inputs`) or from a change event (with them). */
export type LoadedTask = TaskListItem & { inputs?: Task['inputs'] };

export type Tone = 'neutral' | 'info' | 'progress' | 'success' | 'warning' | 'danger';

const LABELS: Record<TaskState, string> = {
  queued: 'Queued',
  submitting: 'Sending',
  pending: 'Waiting at service',
  staged: 'Waiting for a slot',
  processing: 'Generating',
  completed: 'Completed',
  downloading: 'Downloading',
  saved: 'Saved',
  failed: 'Failed',
  uncertain: 'Uncertain',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

const TONES: Record<TaskState, Tone> = {
  queued: 'neutral',
  submitting: 'info',
  pending: 'info',
  staged: 'info',
  processing: 'progress',
  completed: 'progress',
  downloading: 'progress',
  saved: 'success',
  failed: 'danger',
  uncertain: 'warning',
  cancelled: 'neutral',
  expired: 'warning',
};

export function stateLabel(state: TaskState): string {
  return LABELS[state] ?? state;
}

export function stateTone(state: TaskState): Tone {
  return TONES[state] ?? 'neutral';
}

/** What choosing for an uncertain task means for the bill. */
const UNCERTAIN_CHOICE = 'Submitting it again may be billed twice; discarding it sends nothing.';

/** One sentence on what a state means for the user. */
export function stateExplanation(task: Pick<LoadedTask, 'state' | 'error' | 'settlement'>): string {
  switch (task.state) {
    case 'queued':
      return 'Waiting on this computer; it will be sent when the service can take it.';
    case 'submitting':
      return 'Being sent to the service now.';
    case 'pending':
      return 'The service accepted it and will start soon.';
    case 'staged':
      return 'The service is holding it until your account has a free slot.';
    case 'processing':
      return 'The service is generating it.';
    case 'completed':
    case 'downloading':
      return 'Done at the service; saving the result to your library.';
    case 'saved':
      return 'Saved in your library.';
    case 'failed':
      return task.error?.message ?? 'The task failed.';
    case 'uncertain':
      // the engine's words say what happened (an error answer, no answer, an unreadable one)
      // the service's history showed it never created it, or holds several that could be it: the words say so
      if (task.settlement?.outcome === 'not-created' || task.settlement?.outcome === 'choose')
        return asSentence(task.error?.message ?? task.settlement.note);
      return `${task.error ? asSentence(task.error.message) : "We sent this task but can't tell whether the service received it."} ${UNCERTAIN_CHOICE}${task.settlement?.outcome === 'unreachable' ? ` ${asSentence(task.settlement.note)}` : ''}`;
    case 'cancelled':
      return task.error?.kind === 'cancelled-at-service'
        ? 'The service cancelled it (this app did not); any cost it reports still counts.'
        : 'Cancelled before it was sent; nothing was billed.';
    case 'expired':
      return 'The service no longer had the result when we asked for it.';
    default:
      return '';
  }
}

/** How a row of Activity shows a task: its state, or what it waits for while nothing is reached. */
export interface RowStatus {
  label: string;
  tone: Tone;
  explanation: string;
  /** False while the service is out of reach: a moving bar would claim progress nobody saw. */
  showProgress: boolean;
}

/** Why a task waiting to be sent is not sent, or null when the connection is fine. */
function waitingFor(connection: ConnectionState): { label: string; why: string } | null {
  switch (connection.kind) {
    case 'no-network':
      return { label: 'Waiting for the network', why: 'there is no network connection' };
    case 'unreachable':
      return {
        label: 'Waiting for the service',
        why: `${serviceAt(connection.address)} does not answer (check the address in Settings if this lasts)`,
      };
    case 'key-refused':
      return {
        label: 'Waiting for a key',
        why: 'the service refused the API key (store one it accepts in Settings)',
      };
    case 'no-service':
      return { label: 'Waiting for a service', why: 'no service is set up (add an API key or use the demo)' };
    default:
      return null;
  }
}

/**
 * The state of a task as a row shows it, given the connection: a task that cannot be sent says
 * what it waits for, never "Sending" with a moving bar; one at the service says the service is
 * out of reach while it is.
 */
export function rowStatusOf(
  task: Pick<LoadedTask, 'state' | 'error'>,
  connection: ConnectionState,
): RowStatus {
  const own = { label: stateLabel(task.state), tone: stateTone(task.state), showProgress: true };
  if (task.state === 'failed' && task.error?.kind === 'plan-refused')
    return { ...own, label: 'Not in your plan', explanation: stateExplanation(task) };
  const waiting = waitingFor(connection);
  if (waiting && (task.state === 'queued' || task.state === 'submitting')) {
    const trying = task.state === 'submitting' ? ' The app is trying now.' : '';
    return {
      label: waiting.label,
      tone: 'warning',
      explanation: `Not sent yet: ${waiting.why}. It is sent by itself once that is solved.${trying}`,
      showProgress: false,
    };
  }
  if (
    REMOTE_ACTIVE_STATES.includes(task.state) &&
    (connection.kind === 'no-network' || connection.kind === 'unreachable')
  ) {
    const where =
      connection.kind === 'no-network'
        ? 'the network is down'
        : `${serviceAt(connection.address)} does not answer`;
    return {
      ...own,
      explanation: `The service has it, but ${where}: no news until it answers again, then the result is fetched.`,
      showProgress: false,
    };
  }
  return { ...own, explanation: stateExplanation(task) };
}

const ENDED_STATES: readonly TaskState[] = ['completed', 'downloading', 'saved', 'failed'];

export interface Progress {
  elapsedMs: number;
  expectedMs: number | null;
  /** 0..1, held under 1 until the task is done; null when nothing is running yet. */
  ratio: number | null;
}

/** How far along a running task is, measured from when it was sent. */
export function progressOf(
  task: Pick<LoadedTask, 'state' | 'submittedAt' | 'createdAt' | 'expectedMs' | 'endedAt'>,
  now: number,
): Progress {
  const startIso = task.state === 'queued' ? task.createdAt : (task.submittedAt ?? task.createdAt);
  const start = Date.parse(startIso);
  // An end time counts only once the service is done (some answers carry a year-1 placeholder).
  const ended = task.endedAt && ENDED_STATES.includes(task.state) ? Date.parse(task.endedAt) : Number.NaN;
  const end = Number.isNaN(ended) || ended < start ? now : ended;
  const elapsedMs = Number.isNaN(start) ? 0 : Math.max(0, end - start);
  const expectedMs = task.expectedMs && task.expectedMs > 0 ? task.expectedMs : null;
  if (task.state === 'queued') return { elapsedMs, expectedMs, ratio: null };
  if (task.state === 'completed' || task.state === 'downloading' || task.state === 'saved') {
    return { elapsedMs, expectedMs, ratio: 1 };
  }
  if (expectedMs === null) return { elapsedMs, expectedMs, ratio: null };
  return { elapsedMs, expectedMs, ratio: Math.min(0.97, elapsedMs / expectedMs) };
}

export type ActivitySectionId = 'decide' | 'running' | 'queued' | 'failed' | 'finished';

export interface ActivitySection {
  id: ActivitySectionId;
  title: string;
  tasks: LoadedTask[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many recently finished tasks the Activity view keeps showing. */
export const FINISHED_SHOWN = 20;

const byCreatedAsc = (a: LoadedTask, b: LoadedTask) => a.createdAt.localeCompare(b.createdAt);
const byUpdatedDesc = (a: LoadedTask, b: LoadedTask) => b.updatedAt.localeCompare(a.updatedAt);

export interface SectionOptions {
  /** Failures the user dismissed: not listed (they stay in the library). */
  hidden?: ReadonlySet<string>;
  /** List every failure the window knows, not only the last day's. */
  allFailures?: boolean;
}

/**
 * The Activity view's sections: decisions first, then running, queued, failed today (or every
 * failure loaded, when asked), finished today.
 */
export function activitySections(
  tasks: Iterable<LoadedTask>,
  now: number,
  options: SectionOptions = {},
): ActivitySection[] {
  const decide: LoadedTask[] = [];
  const running: LoadedTask[] = [];
  const queued: LoadedTask[] = [];
  const failed: LoadedTask[] = [];
  const finished: LoadedTask[] = [];
  const dayAgo = now - DAY_MS;
  for (const task of tasks) {
    if (task.state === 'uncertain') decide.push(task);
    else if (task.state === 'queued') queued.push(task);
    else if (RUNNING_STATES.includes(task.state)) running.push(task);
    else if (task.state === 'failed') {
      if (options.hidden?.has(task.id)) continue;
      if (options.allFailures || Date.parse(task.updatedAt) >= dayAgo) failed.push(task);
    } else if (Date.parse(task.updatedAt) >= dayAgo && FINISHED_STATES.includes(task.state))
      finished.push(task);
  }
  const sections: ActivitySection[] = [
    { id: 'decide', title: 'Needs your decision', tasks: decide.sort(byCreatedAsc) },
    { id: 'running', title: 'Running', tasks: running.sort(byCreatedAsc) },
    { id: 'queued', title: 'Waiting to be sent', tasks: queued.sort(byCreatedAsc) },
    {
      id: 'failed',
      title: options.allFailures ? 'Failed' : 'Failed in the last day',
      tasks: failed.sort(byUpdatedDesc),
    },
    {
      id: 'finished',
      title: 'Recently finished',
      tasks: finished.sort(byUpdatedDesc).slice(0, FINISHED_SHOWN),
    },
  ];
  return sections.filter((s) => s.tasks.length > 0);
}

/** What the navigation counts: tasks the engine still works on, and tasks awaiting a decision. */
export interface NavCounts {
  active: number;
  uncertain: number;
}

export function taskCounts(tasks: Iterable<LoadedTask>): NavCounts {
  let active = 0;
  let uncertain = 0;
  for (const task of tasks) {
    if (task.state === 'uncertain') uncertain += 1;
    else if (ENGINE_WORK_STATES.includes(task.state)) active += 1;
  }
  return { active, uncertain };
}

/**
 * What a task does in a person's words (`Song from text`), from its catalog entry; the raw task
 * type when the catalog does not know it. A summary that names only a task type (a lineage
 * item, a batch) gets the label only when one entry has that task type.
 */
export function taskTypeLabelOf(task: { entryId?: string | null; model?: string; taskType: string }): string {
  if (task.model !== undefined) return entryOfTask({ ...task, model: task.model })?.label ?? task.taskType;
  const entries = TASK_TYPES.filter((e) => e.taskType === task.taskType);
  return entries.length === 1 ? (entries[0]?.label ?? task.taskType) : task.taskType;
}
