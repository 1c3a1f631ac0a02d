/**
 * Compare two to four results of one kind (issue 22, item 5), in the library in place of the
 * gallery: pictures split or side by side (PictureCompare), songs by an A/B switch that keeps
 * the position in the app's one player (SongSwitch), videos side by side in step (VideosInStep).
 * Opened from the selection toolbar's Compare; "Back to the library" or Escape goes back, with
 * the focus on Compare again. A result that leaves the library meanwhile leaves the compare.
 */
import { useEffect, useId, useRef } from 'react';
import { checkerboardClass } from '../../model/picture-look.ts';
import { comparedTitles } from '../../model/variation-words.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { fileUrl, mainOutput } from '../library/task-media.ts';
import { COMPARED_KINDS, useCompare } from './compare-state.ts';
import { PictureCompare } from './PictureCompare.tsx';
import { SongSwitch } from './SongSwitch.tsx';
import { VideosInStep } from './VideosInStep.tsx';
import '../../styles/compare.css';

/** Closes the view and puts the focus back on the toolbar's Compare. */
function goBack(): void {
  useCompare.getState().close();
  let frames = 0;
  const look = () => {
    const opener = document.querySelector<HTMLElement>('[data-testid="compare-open"]');
    if (opener) opener.focus();
    else if (frames++ < 60) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}

/** Escape anywhere but a text field or a modal dialog goes back to the library. */
function useEscapeBack(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      const target = event.target;
      if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
      if (
        target instanceof HTMLInputElement &&
        !['checkbox', 'radio', 'button', 'range'].includes(target.type)
      )
        return;
      event.preventDefault();
      goBack();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

export function CompareView() {
  const id = useId();
  const taskIds = useCompare((s) => s.taskIds);
  const kind = useCompare((s) => s.kind);
  const byId = useTasks((s) => s.byId);
  useTasks((s) => s.rev); // the map changes in place: a change of any task re-renders
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  useEscapeBack();
  // a task moved to Recently deleted meanwhile (retention's run, the CLI) has left the library
  const shown = taskIds.flatMap((taskId) => {
    const task = byId.get(taskId);
    const output = task && task.deletedAt === null ? mainOutput(task) : null;
    const url = fileUrl(output, base);
    return task && output && url ? [{ task, output, url }] : [];
  });
  const noun = (kind && COMPARED_KINDS[kind]) ?? 'results';
  const titles = comparedTitles(shown.map(({ task }) => task));
  return (
    <section className="compare-view" aria-labelledby={`${id}-h`} data-testid="compare-view" data-kind={kind}>
      <header className="compare-head">
        <h2 id={`${id}-h`} ref={headingRef} tabIndex={-1}>
          {shown.length < 2 ? 'Compare' : `Compare ${shown.length} ${noun}`}
        </h2>
        <button type="button" className="button button-small" onClick={goBack}>
          Back to the library
        </button>
      </header>
      {shown.length < 2 ? (
        <p className="muted">These results are no longer in the library to compare.</p>
      ) : kind === 'image' ? (
        <PictureCompare
          pictures={shown.map(({ task, output, url }, i) => ({
            id: task.id,
            title: titles[i] ?? task.title,
            url,
            checkerboard: checkerboardClass(task) !== '',
            width: output.width,
            height: output.height,
          }))}
        />
      ) : kind === 'audio' ? (
        <SongSwitch ids={shown.map((s) => s.task.id)} />
      ) : (
        <VideosInStep
          videos={shown.map(({ task, url }, i) => ({ id: task.id, title: titles[i] ?? task.title, url }))}
        />
      )}
    </section>
  );
}
