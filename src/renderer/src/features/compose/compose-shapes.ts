/**
 * The shapes the composer's modules share: a tab's name, what a tab's form composes and the
 * problems found reading it, and a problem as a field shows it. Types only, and importing only
 * src/shared, so the form modules (compose-model.ts, compose-slots.ts, kind-tabs.ts,
 * result-operations.ts, compose-problems.ts) take them from here instead of from each other in a
 * circle. compose-model.ts and compose-problems.ts re-export them for the rest of the composer.
 */
import type { COMPOSE_TAB_NAMES } from '../../../../shared/index.ts';

export type ComposeTab = (typeof COMPOSE_TAB_NAMES)[number];

/** A problem the form itself can tell before the catalog's rules run (a number that is not one…). */
export interface LocalProblem {
  field: string;
  message: string;
  /** A value not given yet: shown beside an untouched field only after a Queue attempt. */
  missing?: boolean;
}

/** What a tab's form would send, and the problems found while reading it (every one, in order). */
export interface ComposedInput {
  model: string;
  taskType: string;
  input: Record<string, unknown>;
  local: LocalProblem[];
  /** False when the input could not be read at all (the Other tab's JSON is not an object). */
  readable: boolean;
}

export interface FieldProblem {
  /**
   * The field it concerns: an input field (`style_prompt`, `image1`), `lyrics-markers`, a
   * common field (`webhook_config.endpoint`), or for the Other tab `input` (the JSON text),
   * `input.<key>` (a key of it), `model`, `task_type`, `model_id`.
   */
  field: string;
  /** Shown beside the field, in plain words. */
  message: string;
  /** Shown in the Queue bar, away from the field: it names the field. */
  summary: string;
  /** A value not given yet: an untouched empty field says nothing of it before the first Queue. */
  missing: boolean;
  /** Still being checked: keeps Queue waiting, but is not an error. */
  pending: boolean;
}
