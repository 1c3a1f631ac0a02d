/** One task as the sandbox keeps it, and how its phase reads as a service status. */
import type { TaskTypeEntry } from '../shared/catalog/index.ts';
import type { CheckedImage } from './image-input-check.ts';
import type { VideoParams } from './media/index.ts';

/**
 * `finishing` is the sandbox's own phase: the processing time is over and the output files are
 * being made; it reads as `processing`.
 */
export type TaskPhase = 'staged' | 'pending' | 'processing' | 'finishing' | 'completed' | 'failed';

export interface TaskOutputFile {
  name: string;
  contentType: string;
  key: string;
  url: string;
  width: number | null;
  height: number | null;
  seconds: number | null;
  /** What a video made from words was made with (output-generation.ts: a video made from it draws these again). */
  video?: VideoParams;
}

export interface TaskErrorObject {
  code: number;
  raw_message: string;
  message: string;
  detail: null;
}

export interface SandboxTask {
  id: string;
  /** Sequence number, used as the numeric id of the detailed form C. */
  seq: number;
  apiKey: string;
  model: string;
  taskType: string;
  entry: TaskTypeEntry;
  /** The input as received. */
  requestInput: Record<string, unknown>;
  /** The input as the record shows it (ace-step renames negative_prompt, spec 2.2). */
  echoedInput: Record<string, unknown>;
  webhook: { endpoint: string; secret: string };
  serviceMode: string;
  phase: TaskPhase;
  createdAt: number;
  /** When processing starts (and started_at is reported); null while staged. */
  startsAt: number | null;
  /** When processing time is over; null while staged. */
  endsAt: number | null;
  /** When the task reached completed or failed. */
  endedAt: number | null;
  /** Last visible change (form C updateTime). */
  updatedAt: number;
  pendingMs: number;
  processingMs: number;
  willFail: boolean;
  earlyExpiry: boolean;
  /** How long outputs stay downloadable after completion (early-expiry fault or the option). */
  outputTtlMs: number;
  /** Decoded image inputs, dropped once the outputs are made. */
  images: CheckedImage[] | null;
  outputs: TaskOutputFile[];
  /** When output URLs stop working (wall time). */
  expiresAt: number | null;
  outputsReleased: boolean;
  /** Usage in points (1 point = 1 micro-USD, see index.ts). */
  frozen: number;
  consume: number;
  error: TaskErrorObject | null;
  /** Bumped at every visible change; keys the cached answer body. */
  version: number;
  cachedBody: { key: string; body: string } | null;
}

export const NO_ERROR: TaskErrorObject = Object.freeze({
  code: 0,
  raw_message: '',
  message: '',
  detail: null,
});

/** The service status string of a phase. */
export function statusOf(task: SandboxTask): string {
  return task.phase === 'finishing' ? 'processing' : task.phase;
}

export function isActivePhase(phase: TaskPhase): boolean {
  return phase === 'pending' || phase === 'processing' || phase === 'finishing';
}

export function isTerminalPhase(phase: TaskPhase): boolean {
  return phase === 'completed' || phase === 'failed';
}
