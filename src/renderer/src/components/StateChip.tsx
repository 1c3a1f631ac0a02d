import type { TaskState } from '../../../shared/index.ts';
import { stateLabel, stateTone } from '../model/task-status.ts';

export function StateChip({ state }: { state: TaskState }) {
  return (
    <span className={`chip chip-${stateTone(state)}`} data-testid="state-chip" data-state={state}>
      {stateLabel(state)}
    </span>
  );
}
