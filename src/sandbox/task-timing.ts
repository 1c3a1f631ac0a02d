/**
 * How long each task type stays pending and processing, in seconds before `timeScale`, with a
 * deterministic per-task spread of +-10% derived from the task id.
 */
import { hashText, seededRandom } from './media/index.ts';

export interface StageDurations {
  pendingMs: number;
  processingMs: number;
}

/** Seconds of audio a task of the ace-step family produces. */
export function audioSecondsOf(taskType: string, input: Record<string, unknown>): number {
  const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
  if (taskType === 'extend') {
    return num(input.duration, 30) + num(input.left_extend_duration, 0) + num(input.right_extend_duration, 0);
  }
  return num(input.duration, 30);
}

/** Base pending and processing seconds of a task type (before scale and spread). */
export function baseSeconds(taskType: string, input: Record<string, unknown>): [number, number] {
  switch (taskType) {
    case 'txt2audio':
    case 'audio2audio':
    case 'edit':
    case 'extend':
      return [3, 2 + audioSecondsOf(taskType, input) / 10];
    case 'face-swap':
    case 'multi-face-swap':
    case 'upscale':
      return [2, 4];
    case 'background-remove':
    case 'segment':
      return [1, 3];
    case 'image-edit':
      return [2, 6];
    case 'txt2img':
      return [2, 5];
    case 'txt2video':
      return [3, 15];
    default:
      return [2, 5];
  }
}

export function stageDurations(
  taskId: string,
  taskType: string,
  input: Record<string, unknown>,
  timeScale: number,
): StageDurations {
  const [pending, processing] = baseSeconds(taskType, input);
  // the same task id always gets the same spread
  const spread = 0.9 + 0.2 * seededRandom(hashText(taskId))();
  return {
    pendingMs: Math.round(pending * 1000 * timeScale * spread),
    processingMs: Math.round(processing * 1000 * timeScale * spread),
  };
}
