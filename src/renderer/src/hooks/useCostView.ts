/**
 * What the library in use has cost and its budget (`cost.summary`): read again when that library
 * changes (demo mode turned on or off, another folder), when the budget is saved, and shortly
 * after tasks change (a task saved or reported on changes the spending). Settings' summary and
 * the composer's live budget check read it.
 */
import { useEffect, useRef, useState } from 'react';
import type { CostView } from '../../../shared/index.ts';
import { invoke } from '../bridge.ts';
import { useStudio } from '../state/studio-state.ts';
import { useTasks } from '../state/tasks-state.ts';

/** How long task changes are gathered before the spending is read again. */
const TASK_CHANGE_READ_MS = 400;

/**
 * A count that goes up once per burst of task changes: the first change after a read starts a
 * wait of TASK_CHANGE_READ_MS, and the changes during it are read together.
 */
function useTaskChangeReads(): number {
  const rev = useTasks((s) => s.rev);
  const [reads, setReads] = useState(0);
  const seen = useRef(rev);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  useEffect(() => {
    if (rev === seen.current || timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      setReads((n) => n + 1);
    }, TASK_CHANGE_READ_MS);
    seen.current = rev;
  }, [rev]);
  return reads;
}

/** The library in use's costs (null until read, never another library's), or why they could not be read. */
export function useCostView(): { cost: CostView | null; error: string | null } {
  const libraryInUse = useStudio((s) => s.settings?.libraryInUse ?? null);
  const budgetMicros = useStudio((s) => s.settings?.budgetMicros ?? null);
  // the spending as read, with the library it was read from: another library's is never shown
  const [read, setRead] = useState<{ library: string | null; view: CostView } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const taskReads = useTaskChangeReads();
  // biome-ignore lint/correctness/useExhaustiveDependencies: read again with the library, the budget and task changes
  useEffect(() => {
    let live = true;
    invoke('cost.summary', {})
      .then((view) => {
        if (!live) return;
        setRead({ library: libraryInUse, view });
        setError(null);
      })
      .catch((err: unknown) => live && setError(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [libraryInUse, budgetMicros, taskReads]);
  return { cost: read && read.library === libraryInUse ? read.view : null, error };
}
