/**
 * The question Queue asks before sending a task whose price is not known (none published, or
 * known only once it runs), and when it does not: in demo mode (nothing is billed) and for a task
 * type the user said not to ask about again (settings `unknownPriceAccepted`). Pure.
 */
import { catalogEntry, estimateCost, type TaskDraft } from '../../../../shared/index.ts';

export interface UnknownPriceQuestion {
  /** The catalog entry of the first draft without a price (null for a pair the catalog does not know). */
  entryId: string | null;
  /** Its name in the window (`Image upscale`). */
  label: string;
  /** The question, in full. */
  message: string;
}

type Draft = Pick<TaskDraft, 'model' | 'taskType' | 'input'>;

/**
 * The first of `drafts` without a known price (whose entry is not in `accepted`), as a question;
 * null when every one is priced (or accepted).
 */
export function unknownPriceQuestion(
  drafts: readonly Draft[],
  accepted: readonly string[] = [],
): UnknownPriceQuestion | null {
  const priceOf = (d: Draft) => estimateCost({ model: d.model, task_type: d.taskType, input: d.input });
  const unpriced = drafts.find((d) => {
    if (priceOf(d).micros !== null) return false;
    const id = catalogEntry(d.model, d.taskType)?.id;
    return id === undefined || !accepted.includes(id);
  });
  if (!unpriced) return null;
  const entry = catalogEntry(unpriced.model, unpriced.taskType);
  const label = entry?.label ?? unpriced.taskType;
  const what = drafts.length > 1 ? `these ${drafts.length} tasks` : 'it';
  const why = entry?.price
    ? `The price of ${label} is not known before it runs (${priceOf(unpriced).explanation})`
    : `The service publishes no price for ${label}`;
  return {
    entryId: entry?.id ?? null,
    label,
    message: `${why}, so the app cannot say what ${what} will cost or count ${drafts.length > 1 ? 'them' : 'it'} against a budget. Queue ${what} anyway?`,
  };
}

/**
 * Whether Queue asks before sending `drafts`: only when one has no known price, outside demo
 * mode, and its task type is not one the user said to queue without asking.
 */
export function unknownPriceToAsk(
  drafts: readonly Draft[],
  settings: { demoLibrary: boolean; unknownPriceAccepted: readonly string[] } | null,
): UnknownPriceQuestion | null {
  if (settings?.demoLibrary) return null;
  return unknownPriceQuestion(drafts, settings?.unknownPriceAccepted ?? []);
}
