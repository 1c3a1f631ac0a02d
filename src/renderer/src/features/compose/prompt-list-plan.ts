/**
 * Prompt lists in the composer (issue 22, item 3): the drafts a form makes, each expanded by its
 * alternatives `{dawn|noon|dusk}` in any text field and, with "One task per line" on, by the
 * lines of its prompt (the expansion is src/shared/compose, as the CLI's). Pure.
 */
import {
  BATCH_MAX_DRAFTS,
  catalogEntry,
  expandDraftTexts,
  promptFieldOf,
  type TaskDraft,
  tooManyTasks,
} from '../../../../shared/index.ts';

export type PromptListPlan =
  | { ok: true; drafts: TaskDraft[] }
  | { ok: false; field: string; message: string };

/** Every draft `drafts` make with their alternatives (and, with `lines`, one per line of the prompt); at most 100. */
export function expandPromptLists(drafts: readonly TaskDraft[], lines: boolean): PromptListPlan {
  const out: TaskDraft[] = [];
  for (const draft of drafts) {
    const entry = catalogEntry(draft.model, draft.taskType);
    if (!entry) {
      out.push(draft);
      continue;
    }
    const linesField = lines ? promptFieldOf(entry.input) : null;
    const expanded = expandDraftTexts(draft, entry.input, { linesField, max: BATCH_MAX_DRAFTS });
    if (!expanded.ok) return expanded;
    out.push(...expanded.drafts);
    if (out.length > BATCH_MAX_DRAFTS) {
      const field = linesField ?? promptFieldOf(entry.input) ?? 'prompt';
      const total = drafts.length * expanded.drafts.length;
      return { ok: false, field, message: tooManyTasks(total, BATCH_MAX_DRAFTS) };
    }
  }
  return { ok: true, drafts: out };
}
