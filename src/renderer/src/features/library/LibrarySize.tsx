/**
 * The library's size on disk by kind (issue 22, item 4): the saved results' files as the library
 * recorded them when each was saved (library.size reads a few totals, never the disk), asked
 * again a moment after tasks change. In Recently deleted: what its tasks hold.
 */
import { useEffect, useState } from 'react';
import { diskSizeText, KIND_PLURALS, type LibrarySize } from '../../../../shared/task/retention.ts';
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../state/tasks-state.ts';

/** The size, asked again 500 ms after the last change of the tasks. */
export function useLibrarySize(): LibrarySize | null {
  const [size, setSize] = useState<LibrarySize | null>(null);
  const rev = useTasks((s) => s.rev);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () => {
        invoke('library.size', {}).then(
          (v) => live && setSize(v),
          () => undefined, // the line stays as it was; the library says its own errors
        );
      },
      rev === 0 ? 0 : 500,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [rev]);
  return size;
}

export function LibrarySizeLine({ trashView }: { trashView: boolean }) {
  const size = useLibrarySize();
  if (size === null) return null;
  if (trashView)
    return (
      <p className="muted library-size" data-testid="library-size">
        {diskSizeText(size.trashedBytes)} on disk here, freed when these tasks go for good.
      </p>
    );
  const kinds = size.byKind.filter((k) => k.tasks > 0);
  return (
    <p className="muted library-size" data-testid="library-size">
      <span>On disk: {diskSizeText(size.bytes)}</span>
      {kinds.map((k) => (
        <span key={k.kind} data-kind={k.kind}>
          {' · '}
          {KIND_PLURALS[k.kind]} {diskSizeText(k.bytes)}
        </span>
      ))}
      {size.trashedBytes > 0 ? (
        <span> ({diskSizeText(size.trashedBytes)} of it in Recently deleted)</span>
      ) : null}
    </p>
  );
}
