/** The live check of the shown tab, for its forms and the Queue bar. */
import { useMemo } from 'react';
import { useCompose } from '../../stores/compose-store.ts';
import type { ComposeTab } from './compose-model.ts';
import { type FieldProblem, formProblems, shownProblems } from './compose-problems.ts';

export interface TabProblems {
  /** Every problem, in screen order; empty when the tab can be queued. */
  problems: FieldProblem[];
  /** What to show beside each field now (untouched empty fields say nothing before a Queue attempt). */
  shown: Record<string, string>;
}

export function useFormProblems(tab: ComposeTab): TabProblems {
  const song = useCompose((s) => s.song);
  const imageEdit = useCompose((s) => s.imageEdit);
  const other = useCompose((s) => s.other);
  const slots = useCompose((s) => s.slots);
  const common = useCompose((s) => s.common);
  const rerunOf = useCompose((s) => s.rerunOf);
  const touched = useCompose((s) => s.touched[tab]);
  const attempted = useCompose((s) => s.attempted[tab]);
  const problems = useMemo(
    () => formProblems(tab, { song, imageEdit, other, slots, common, rerunOf }),
    [tab, song, imageEdit, other, slots, common, rerunOf],
  );
  const shown = useMemo(() => shownProblems(problems, touched, attempted), [problems, touched, attempted]);
  return { problems, shown };
}

/** The message beside a field: main's refusal from the last Queue, else the live check's. */
export function fieldMessage(
  errors: Readonly<Record<string, string>>,
  shown: Readonly<Record<string, string>>,
  field: string,
): string | null {
  return errors[field] ?? shown[field] ?? null;
}
