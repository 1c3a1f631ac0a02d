/**
 * Settings › Retention's form: the rules being edited (the days as typed) and the rules as kept
 * when the edit started. Pure; RetentionSection holds it.
 */
import type { RetentionRules } from '../../../../shared/task/retention.ts';

export interface RetentionDraft {
  /** The rules as kept when this draft started from them. */
  from: RetentionRules;
  /** The keep rules as the form shows them (`olderThanDays` is `daysText`'s, when it reads). */
  rules: RetentionRules;
  /** The days field as typed. */
  daysText: string;
}

export function draftOf(rules: RetentionRules): RetentionDraft {
  return { from: rules, rules, daysText: String(rules.olderThanDays) };
}

/** The draft's rules when its days read as a number (the field's own check says when not). */
export function draftRules(draft: RetentionDraft): RetentionRules {
  return { ...draft.rules, olderThanDays: Number(draft.daysText) };
}

/** Whether the draft is the rules as kept when it started (the days field as they were written). */
export function draftEdited(draft: RetentionDraft): boolean {
  return draft.daysText !== String(draft.from.olderThanDays) || !sameRules(draft.rules, draft.from);
}

/**
 * The form once the rules as kept are `kept` (read again: at first, as a run starts or ends,
 * after a change made elsewhere): those rules, unless the user is editing; an edit is kept as
 * typed (`keptChanged` says the rules changed under it).
 */
export function followKept(draft: RetentionDraft | null, kept: RetentionRules): RetentionDraft {
  if (draft === null || !draftEdited(draft)) return draftOf(kept);
  // an edit that is what is kept now is no edit any more
  if (draft.daysText.trim() === String(kept.olderThanDays) && sameRules(draftRules(draft), kept))
    return draftOf(kept);
  return draft;
}

/** Whether the rules as kept changed (but for on or off) while the user edited them. */
export function keptChanged(draft: RetentionDraft, kept: RetentionRules): boolean {
  return draftEdited(draft) && !sameRules(draft.from, kept);
}

/** The same rules but for on or off (which the form does not edit). */
function sameRules(a: RetentionRules, b: RetentionRules): boolean {
  const key = (r: RetentionRules) =>
    JSON.stringify({ ...r, enabled: false, keepKinds: [...r.keepKinds].sort() });
  return key(a) === key(b);
}
