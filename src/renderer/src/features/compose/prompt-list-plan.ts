/**
 * Prompt lists in the composer (issue 22, item 3): the drafts a form makes, each expanded by its
 * alternatives `{dawn|noon|dusk}` in any text field and, with "One task per line" on, by the
 * lines of its prompt (the expansion is src/shared/compose, as the CLI's). A list that cannot be
 * read, or that alone makes over 100, is a problem of its field (`promptListProblem`, shown
 * there by the live check); over 100 with the variations or pictures, of the batch. Pure.
 */
import {
  BATCH_MAX_DRAFTS,
  catalogEntry,
  expandDraftTexts,
  promptFieldOf,
  type TaskDraft,
  tooManyTasks,
  writtenTextNames,
} from '../../../../shared/index.ts';

export type PromptListPlan =
  | { ok: true; drafts: TaskDraft[] }
  | { ok: false; field: string; message: string; list: true };

/** Every draft `drafts` make with their alternatives (and, with `lines`, one per line of the prompt); at most 100. */
export function expandPromptLists(drafts: readonly TaskDraft[], lines: boolean): PromptListPlan {
  const out: TaskDraft[] = [];
  // every draft is counted, so a refusal says how many there would be
  let count = 0;
  let over: string | null = null;
  for (const draft of drafts) {
    const entry = catalogEntry(draft.model, draft.taskType);
    if (!entry) {
      count += 1;
      if (count <= BATCH_MAX_DRAFTS) out.push(draft);
      continue;
    }
    const linesField = lines ? promptFieldOf(entry.input) : null;
    const names = writtenTextNames(entry.input);
    const expanded = expandDraftTexts(draft, entry.input, { linesField, max: BATCH_MAX_DRAFTS, names });
    if (!expanded.ok) return { ...expanded, list: true };
    count += expanded.drafts.length;
    if (count <= BATCH_MAX_DRAFTS) out.push(...expanded.drafts);
    else over ??= linesField ?? promptFieldOf(entry.input) ?? 'prompt';
  }
  if (over !== null) return { ok: false, field: over, message: tooManyTasks(count), list: true };
  return { ok: true, drafts: out };
}

/**
 * The problem of a form's own prompt list (its draft before variations and pictures), in a
 * sentence naming the field ("The { at character 1 of the negative prompt is not closed: …"), or
 * null when it can be read and makes at most 100.
 */
export function promptListProblem(
  draft: TaskDraft,
  lines: boolean,
): { field: string; message: string } | null {
  const planned = expandPromptLists([draft], lines);
  if (planned.ok) return null;
  return {
    field: planned.field,
    message: planned.message.charAt(0).toUpperCase() + planned.message.slice(1),
  };
}
