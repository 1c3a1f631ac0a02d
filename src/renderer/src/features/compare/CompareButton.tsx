/**
 * The selection toolbar's Compare, shown once two or more tasks are selected (the toolbar has no
 * room for it at 1280 px before, and one result has nothing to be compared with): open for 2 to 4
 * ticked results of one kind (pictures, songs or videos), else unavailable with the reason as its
 * description (read with it, and shown on hover); pressing it then says the reason too.
 */
import { useId } from 'react';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { useSelectedCount } from '../library/gallery-selection.ts';
import { COMPARE_MIN, compareCheck, useCompare } from './compare-state.ts';

export function CompareButton() {
  const id = useId();
  const selection = useUi((s) => s.selection);
  const allMatching = useUi((s) => s.allMatching !== null);
  const byId = useTasks((s) => s.byId);
  useTasks((s) => s.rev);
  const ids = [...selection];
  const count = useSelectedCount();
  if (count < COMPARE_MIN) return null;
  const check = compareCheck(count, allMatching, allMatching ? [] : ids.map((t) => byId.get(t)));
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid="compare-open"
        aria-disabled={check.ok ? undefined : true}
        aria-describedby={check.ok ? undefined : `${id}-why`}
        title={check.ok ? undefined : check.why}
        onClick={() => {
          if (check.ok) useCompare.getState().open(ids, check.kind);
          else useUi.getState().pushToast('info', check.why);
        }}
      >
        Compare
      </button>
      {check.ok ? null : (
        <span id={`${id}-why`} className="visually-hidden">
          {check.why}
        </span>
      )}
    </>
  );
}
