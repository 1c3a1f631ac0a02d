/**
 * The live check of the shown tab, for its forms and the Queue bar: what the form would send and
 * every problem of it, worked out once per change of the form however many components ask.
 */
import { useMemo } from 'react';
import { useCompose } from '../../state/compose-state.ts';
import { type ComposedInput, type ComposeForms, type ComposeTab, composeInput } from './compose-model.ts';
import { type FieldProblem, formProblems, shownProblems } from './compose-problems.ts';

export interface TabProblems {
  /** What the form would send (model, task type, input). */
  composed: ComposedInput;
  /** Every problem, in screen order; empty when the tab can be queued. */
  problems: FieldProblem[];
  /** What to show beside each field now (untouched empty fields say nothing before a Queue attempt). */
  shown: Record<string, string>;
}

/** The last form checked and its result: the forms and the Queue bar of one tab share it. */
let last: {
  tab: ComposeTab;
  forms: ComposeForms;
  lines: boolean;
  result: Omit<TabProblems, 'shown'>;
} | null = null;

function sameForms(a: ComposeForms, b: ComposeForms): boolean {
  return (
    a.song === b.song &&
    a.faceSwap === b.faceSwap &&
    a.imageEdit === b.imageEdit &&
    a.fromResult === b.fromResult &&
    a.other === b.other &&
    a.kinds === b.kinds &&
    a.slots === b.slots &&
    a.common === b.common &&
    a.parent === b.parent
  );
}

function checked(tab: ComposeTab, forms: ComposeForms, lines: boolean): Omit<TabProblems, 'shown'> {
  if (last && last.tab === tab && last.lines === lines && sameForms(last.forms, forms)) return last.result;
  // a large JSON input is parsed once here, not once per reader
  const composed = composeInput(tab, forms);
  const result = { composed, problems: formProblems(tab, forms, composed, { lines }) };
  last = { tab, forms, lines, result };
  return result;
}

export function useFormProblems(tab: ComposeTab): TabProblems {
  const song = useCompose((s) => s.song);
  const faceSwap = useCompose((s) => s.faceSwap);
  const imageEdit = useCompose((s) => s.imageEdit);
  const fromResult = useCompose((s) => s.fromResult);
  const other = useCompose((s) => s.other);
  const kinds = useCompose((s) => s.kinds);
  const slots = useCompose((s) => s.slots);
  const common = useCompose((s) => s.common);
  const parent = useCompose((s) => s.parent);
  const touched = useCompose((s) => s.touched[tab]);
  const attempted = useCompose((s) => s.attempted[tab]);
  // "One task per line": the prompt's lines are read one by one
  const lines = useCompose((s) => s.batch.promptLines?.[tab] === true);
  const result = useMemo(
    () => checked(tab, { song, faceSwap, imageEdit, fromResult, other, kinds, slots, common, parent }, lines),
    [tab, song, faceSwap, imageEdit, fromResult, other, kinds, slots, common, parent, lines],
  );
  const shown = useMemo(
    () => shownProblems(result.problems, touched, attempted),
    [result, touched, attempted],
  );
  return { ...result, shown };
}

/** The message beside a field: main's refusal from the last Queue, else the live check's. */
export function fieldMessage(
  errors: Readonly<Record<string, string>>,
  shown: Readonly<Record<string, string>>,
  field: string,
): string | null {
  return errors[field] ?? shown[field] ?? null;
}
