/**
 * The task record of the `hosted` answer profile: the form A `data` object as the real service's
 * public records show it (field notes: a recorded processing record and the docs' examples).
 * It differs from the spec profile's record in:
 * - times: microseconds and a +08:00 offset (`2025-06-11T11:43:31.673594+08:00`);
 * - `meta.started_at` / `ended_at`: null until the task has that time (not `0001-01-01T00:00:00Z`);
 * - `logs`: null until the task has ended, `[]` after;
 * - `meta.usage.type`: `llm` for ace-step, `point` for the other models;
 * - `usage.frozen` / `consume` in the real units: a `point` is 1e-7 USD (the image, video and 3D
 *   examples: trellis 400,000 = $0.04), an `llm` unit 1e-6 USD (5,000 for a 10 s song).
 */
import type { AnswerProfile } from './options.ts';
import type { SandboxTask } from './task-record.ts';

/** The offset the real service writes its times with. */
const HOSTED_OFFSET_MINUTES = 8 * 60;

/**
 * A time as the real service writes it. The clock has milliseconds only: the last three of the
 * six fraction digits are derived from the milliseconds, so they vary but repeat for a moment.
 */
export function hostedTime(ms: number): string {
  const shifted = new Date(ms + HOSTED_OFFSET_MINUTES * 60_000).toISOString();
  const micros = String((ms * 7) % 1000).padStart(3, '0');
  const hours = String(Math.floor(HOSTED_OFFSET_MINUTES / 60)).padStart(2, '0');
  const minutes = String(HOSTED_OFFSET_MINUTES % 60).padStart(2, '0');
  return `${shifted.slice(0, -1)}${micros}+${hours}:${minutes}`;
}

/** A hosted time, or null when the moment has not come. */
function hostedTimeOrNull(ms: number | null): string | null {
  return ms === null ? null : hostedTime(ms);
}

/** Points of the hosted profile per micro-dollar of the ledger, by usage type. */
export function hostedPointsOf(task: SandboxTask, micros: number): number {
  return usageTypeOf(task) === 'llm' ? micros : micros * HOSTED_POINTS_PER_MICRO;
}

/** A `point` of the hosted profile is worth 1e-7 USD: ten to the micro-dollar. */
export const HOSTED_POINTS_PER_MICRO = 10;

/** `usage.type` as the real records show it: `llm` for the song model (the docs' example), else `point`. */
function usageTypeOf(task: SandboxTask): string {
  return task.entry.modelName === 'ace-step' ? 'llm' : 'point';
}

/** `usage` as a task record of `profile` reports it: the spec profile's points are micro-dollars. */
export function usageOf(
  task: SandboxTask,
  profile: AnswerProfile,
): { type: string; frozen: number; consume: number } {
  if (profile !== 'hosted') return { type: 'point', frozen: task.frozen, consume: task.consume };
  return {
    type: usageTypeOf(task),
    frozen: hostedPointsOf(task, task.frozen),
    consume: hostedPointsOf(task, task.consume),
  };
}

/**
 * The `data` object of a hosted record: the spec profile's record (`formAData`) with the times,
 * the usage type and the logs as the real service writes them.
 */
export function hostedTaskData(
  task: SandboxTask,
  specRecord: Record<string, unknown>,
): Record<string, unknown> {
  const started = task.phase === 'staged' || task.phase === 'pending' ? null : task.startsAt;
  const ended = task.phase === 'completed' || task.phase === 'failed';
  return {
    ...specRecord,
    meta: {
      created_at: hostedTime(task.createdAt),
      started_at: hostedTimeOrNull(started),
      ended_at: hostedTimeOrNull(task.endedAt),
      usage: usageOf(task, 'hosted'),
      is_using_private_pool: false,
    },
    logs: ended ? [] : null,
  };
}
