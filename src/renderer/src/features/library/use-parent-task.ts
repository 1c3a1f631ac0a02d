/** The task a result was made from, for the detail: from the loaded list, else asked for once. */
import { useEffect, useState } from 'react';
import { invoke } from '../../bridge.ts';
import type { LoadedTask } from '../../model/task-status.ts';
import { useTasks } from '../../state/tasks-state.ts';

/** The task `parentId` names (from the loaded list, else asked for), or null. */
export function useParentTask(parentId: string | null): LoadedTask | null {
  const loaded = useTasks((s) => (parentId ? s.byId.get(parentId) : undefined));
  const [fetched, setFetched] = useState<LoadedTask | null>(null);
  useEffect(() => {
    setFetched(null);
    if (!parentId || loaded) return;
    let gone = false;
    invoke('tasks.get', { id: parentId }).then(
      (task) => {
        if (!gone) setFetched(task);
      },
      () => undefined,
    );
    return () => {
      gone = true;
    };
  }, [parentId, loaded]);
  return loaded ?? fetched;
}
