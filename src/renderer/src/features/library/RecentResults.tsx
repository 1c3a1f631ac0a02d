/**
 * Beside the composer in a wide window (1600 px and up): the last six saved results, each with
 * its thumbnail, opening its detail in the Library. Narrower windows show nothing here (the
 * composer keeps the width). Read with tasks.list; read again when a task is saved.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { invoke } from '../../bridge.ts';
import { type LoadedTask, taskTypeLabelOf } from '../../model/task-status.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { mainOutput, thumbUrl } from './task-media.ts';

const WIDE = '(min-width: 1600px)';
const COUNT = 6;
const FAMILY_ICON: Record<string, string> = { song: '♪', 'face-swap': '☺', 'image-edit': '✎', other: '◆' };

function useWideWindow(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(WIDE);
      query.addEventListener('change', changed);
      return () => query.removeEventListener('change', changed);
    },
    () => window.matchMedia(WIDE).matches,
  );
}

function RecentItem({ task }: { task: LoadedTask }) {
  const base = useStudio((s) => s.appInfo?.mediaBaseUrl);
  const output = mainOutput(task);
  const thumb = thumbUrl(output, base);
  const open = () => {
    const ui = useUi.getState();
    ui.navigate('library');
    ui.openDetail(task.id);
  };
  return (
    <li>
      <button type="button" className="recent-item" onClick={open} data-testid="recent-result">
        <span className="recent-thumb" aria-hidden="true">
          {thumb ? (
            <img src={thumb} alt="" loading="lazy" decoding="async" />
          ) : (
            (FAMILY_ICON[task.family] ?? '◆')
          )}
        </span>
        <span className="recent-text">
          <span className="recent-title">{task.title}</span>
          <span className="recent-type">{taskTypeLabelOf(task)}</span>
        </span>
      </button>
    </li>
  );
}

function RecentList() {
  const rev = useTasks((s) => s.rev);
  const byId = useTasks((s) => s.byId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed
  const savedKnown = useMemo(() => [...byId.values()].filter((t) => t.state === 'saved').length, [rev, byId]);
  const [items, setItems] = useState<LoadedTask[] | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: read again whenever another task is saved
  useEffect(() => {
    let current = true;
    invoke('tasks.list', { states: ['saved'], order: 'newest', limit: COUNT, cursor: null })
      .then((page) => {
        if (!current) return;
        useTasks.getState().upsert(page.items);
        setItems(page.items);
      })
      .catch(() => {
        // informative only: the Library shows the same results and says what went wrong
        if (current) setItems([]);
      });
    return () => {
      current = false;
    };
  }, [savedKnown]);

  return (
    <section className="recent-results" aria-labelledby="recent-results-title" data-testid="recent-results">
      <h2 id="recent-results-title">Recent results</h2>
      {items === null ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">Saved results show here.</p>
      ) : (
        <ul className="recent-list">
          {items.map((task) => (
            <RecentItem key={task.id} task={useTasks.getState().byId.get(task.id) ?? task} />
          ))}
        </ul>
      )}
    </section>
  );
}

export function RecentResults() {
  return useWideWindow() ? <RecentList /> : null;
}
