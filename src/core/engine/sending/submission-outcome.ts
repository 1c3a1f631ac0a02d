/**
 * What becomes of a task whose create failed: back to the queue, failed, or uncertain. The
 * decisions are failure-outcomes.ts's (and remote-id-clash.ts's for an id another task has).
 */
import type { TaskError } from '../../../shared/index.ts';

export type SubmissionOutcome =
  /** Surely never reached the service: back to the queue, nothing was billed. */
  | {
      action: 'requeue';
      cause: 'unreachable' | 'rate-limited' | 'unauthorized';
      retryAfterMs: number | null;
      error: TaskError;
      detail: string;
    }
  /** The service answered and refused the task: it is not created, not billed. */
  | { action: 'fail'; error: TaskError; detail: string }
  /**
   * The create may have reached the service: never re-sent without the user's word. (The
   * service was reachable: a connection was made, so this says nothing about being offline.)
   */
  | { action: 'uncertain'; error: TaskError; detail: string };
