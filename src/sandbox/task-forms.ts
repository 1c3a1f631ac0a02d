/**
 * The answers a task is shown in, per model and answer profile (see the tables at the top of
 * index.ts): form A `{timestamp?, code?, message?, data}`, form B (video fetch), form C (detailed
 * record, image-gen fetch) and the image-edit create form of spec 2.7; in the hosted profile the
 * envelope `{code, data, message}` around the hosted record (hosted-record.ts).
 */
import { hostedTaskData } from './hosted-record.ts';
import { hashText } from './media/index.ts';
import type { AnswerProfile } from './options.ts';
import { isoOrZero, isoWithOffset, unixSeconds } from './service-times.ts';
import { NO_ERROR, type SandboxTask, statusOf } from './task-record.ts';

/** Form C's integer status: staged and pending 0, processing 1, completed 2, failed 3. */
export function numericStatus(task: SandboxTask): number {
  switch (statusOf(task)) {
    case 'processing':
      return 1;
    case 'completed':
      return 2;
    case 'failed':
      return 3;
    default:
      return 0;
  }
}

function outputObject(task: SandboxTask): Record<string, unknown> | null {
  if (task.phase !== 'completed') return null;
  const urls = task.outputs.map((o) => o.url);
  const { outputFields, outputKind, outputList } = task.entry;
  // the fields the entry names (trellis: model_file, combined_video, no_background_image), in order
  if (outputFields) return Object.fromEntries(outputFields.map(({ field }, i) => [field, urls[i] ?? '']));
  // else where the entry's model puts its outputs: the first in `<kind>_url`, all in its list field
  return { [`${outputKind}_url`]: urls[0] ?? '', ...(outputList ? { [outputList]: urls } : {}) };
}

/** The `data` object of form A, fully filled. */
export function formAData(task: SandboxTask): Record<string, unknown> {
  const started = task.phase === 'staged' || task.phase === 'pending' ? null : task.startsAt;
  return {
    task_id: task.id,
    model: task.model,
    task_type: task.taskType,
    status: statusOf(task),
    config: { service_mode: task.serviceMode, webhook_config: { ...task.webhook } },
    input: task.echoedInput,
    output: outputObject(task),
    meta: {
      created_at: isoWithOffset(task.createdAt),
      started_at: isoOrZero(started),
      ended_at: isoOrZero(task.endedAt),
      usage: { type: 'point', frozen: task.frozen, consume: task.consume },
      is_using_private_pool: false,
    },
    detail: null,
    logs: [],
    error: task.error ?? { ...NO_ERROR },
  };
}

const OK = { code: 200, message: 'success' } as const;

/** The task record's `data` in a profile: form A's, or the hosted record. */
export function recordData(task: SandboxTask, profile: AnswerProfile): Record<string, unknown> {
  return profile === 'hosted' ? hostedTaskData(task, formAData(task)) : formAData(task);
}

/** The hosted profile's envelope: `{code: 200, data, message: "success"}`. */
function hostedEnvelope(data: unknown): unknown {
  return { code: 200, data, message: 'success' };
}

/** The answer to a create call. */
export function createAnswer(task: SandboxTask, now: number, profile: AnswerProfile = 'spec'): unknown {
  if (profile === 'hosted') return hostedCreateAnswer(task);
  switch (task.entry.modelName) {
    case 'ace-step':
      return { timestamp: unixSeconds(now), data: formAData(task) };
    case 'qwen-image':
      return { task_id: task.id, status: statusOf(task), created_at: new Date(task.createdAt).toISOString() };
    case 'image-toolkit':
      return { ...OK, data: { ...formAData(task), input: {}, output: null, meta: {} } };
    default:
      return { ...OK, data: formAData(task) };
  }
}

/**
 * The hosted create answer: the envelope around the hosted record; face swap and the other
 * image-toolkit types show the docs' example (input `{}`, output null, meta `{}`), and Flux its
 * docs' (status `""`, output `{}`, meta `{}`, error `{code: 1100, message: ""}`).
 */
function hostedCreateAnswer(task: SandboxTask): unknown {
  const data = recordData(task, 'hosted');
  if (task.entry.modelName === 'image-toolkit')
    return hostedEnvelope({ ...data, input: {}, output: null, meta: {} });
  // the Flux docs' create answer: status "", error code 1100 without words, for a task that is fine
  if (task.entry.historyFamily === 'flux')
    return hostedEnvelope({
      ...data,
      status: '',
      input: {},
      output: {},
      meta: {},
      error: { code: 1100, message: '' },
    });
  return hostedEnvelope(data);
}

/** Whether the fetch answer of this task depends on the current second (its `timestamp`). */
export function fetchAnswerHasTimestamp(task: SandboxTask, profile: AnswerProfile = 'spec'): boolean {
  return profile === 'spec' && task.entry.modelName === 'ace-step';
}

/** The answer to a fetch of the task. Forms B and C (the sandbox-only models) are the same in both profiles. */
export function fetchAnswer(task: SandboxTask, now: number, profile: AnswerProfile = 'spec'): unknown {
  if (profile === 'hosted' && !task.entry.sandboxOnly) return hostedEnvelope(recordData(task, 'hosted'));
  switch (task.entry.modelName) {
    case 'ace-step':
      return { timestamp: unixSeconds(now), ...OK, data: formAData(task) };
    case 'video-gen':
      return formB(task);
    case 'image-gen':
      return formC(task);
    default:
      return { ...OK, data: formAData(task) };
  }
}

/** The webhook body: `{timestamp, data}` with data as the profile's record (field notes). */
export function webhookPayload(
  task: SandboxTask,
  now: number,
  profile: AnswerProfile = 'spec',
): { timestamp: number; data: Record<string, unknown> } {
  return { timestamp: unixSeconds(now), data: recordData(task, profile) };
}

/** Form B. Before completion `video_url` is an empty string (not a URL, so no output is read). */
function formB(task: SandboxTask): unknown {
  const url = task.phase === 'completed' ? (task.outputs[0]?.url ?? '') : '';
  return { ...OK, data: { task_id: task.id, status: statusOf(task), output: { video_url: url } } };
}

function taskInfo(task: SandboxTask) {
  return {
    arguments: Object.entries(task.echoedInput).map(([name, value]) => ({
      name,
      value: typeof value === 'string' ? value : JSON.stringify(value),
    })),
    inputs: [],
    type: task.taskType,
  };
}

/** Form C, the detailed record (spec 2.8). */
function formC(task: SandboxTask): unknown {
  const fa = formAData(task);
  const meta = fa.meta as Record<string, string>;
  const userId = hashText(task.apiKey) % 1_000_000;
  const info = taskInfo(task);
  const status = numericStatus(task);
  const works =
    task.phase === 'completed'
      ? task.outputs.map((o, i) => {
          const resource = { height: o.height ?? 0, width: o.width ?? 0, duration: o.seconds ?? 0 };
          return {
            workId: task.seq * 10 + i,
            workItemId: task.seq * 10 + i,
            taskId: task.seq,
            userId,
            type: 'image',
            status,
            contentType: o.contentType,
            resource: { resource: o.url, resourceWithoutWatermark: o.url, ...resource },
            cover: { resource: o.url, ...resource },
            starNum: 0,
            reportNum: 0,
            createTime: task.endedAt ?? task.updatedAt,
            taskInfo: info,
            selfAttitude: '',
            selfComment: { tags: [], content: '' },
            favored: false,
            publishStatus: 'private',
            deleted: false,
          };
        })
      : [];
  return {
    ...OK,
    data: {
      task_id: task.id,
      input: JSON.stringify(task.echoedInput),
      status: statusOf(task),
      metadata: {
        created_at: meta.created_at,
        started_at: meta.started_at,
        ended_at: meta.ended_at,
        quota_frozen: task.frozen,
        quota_usage: task.consume,
      },
      task: {
        id: task.seq,
        userId,
        type: task.taskType,
        status,
        taskInfo: info,
        favored: false,
        deleted: false,
        createTime: task.createdAt,
        updateTime: task.updatedAt,
      },
      works,
      ...(task.error ? { error: task.error } : {}),
    },
  };
}
