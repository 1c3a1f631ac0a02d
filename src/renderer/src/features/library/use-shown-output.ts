/**
 * Which output of the open task its detail shows (the viewer's output picker): the keep-going
 * section follows it, and choosing there shows that output too. Back to the first output when
 * another task opens.
 */
import { useCallback, useState } from 'react';

/** The shown output's `index` (null: the first) and the way to show another. */
export function useShownOutput(taskId: string | null): [number | null, (index: number) => void] {
  const [shown, setShown] = useState<{ taskId: string | null; index: number } | null>(null);
  const show = useCallback((index: number) => setShown({ taskId, index }), [taskId]);
  return [shown?.taskId === taskId ? shown.index : null, show];
}
