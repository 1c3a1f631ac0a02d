/**
 * Every active and recent task, live: a virtualized list (it stays light with a thousand tasks
 * streaming) of sections, decisions first.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { useNow } from '../../hooks/useNow.ts';
import { activitySections, type TaskSummary } from '../../model/task-status.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { useTasks } from '../../stores/tasks-store.ts';
import { useUi } from '../../stores/ui-store.ts';
import { ActivityRow } from './ActivityRow.tsx';

type Item =
  | { kind: 'header'; id: string; title: string; count: number }
  | { kind: 'task'; task: TaskSummary };

export function ActivityView() {
  const rev = useTasks((s) => s.rev);
  const byId = useTasks((s) => s.byId);
  const loaded = useTasks((s) => s.activityLoaded);
  const status = useStudio((s) => s.status);
  const navigate = useUi((s) => s.navigate);
  const now = useNow(1000);
  const minute = Math.floor(now / 60_000);
  const scrollRef = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed; sections move on by the minute
  const items = useMemo<Item[]>(() => {
    const list: Item[] = [];
    for (const section of activitySections(byId.values(), minute * 60_000 + 59_999)) {
      list.push({ kind: 'header', id: section.id, title: section.title, count: section.tasks.length });
      for (const task of section.tasks) list.push({ kind: 'task', task });
    }
    return list;
  }, [rev, byId, minute]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (items[index]?.kind === 'header' ? 48 : 132),
    getItemKey: (index) => {
      const item = items[index];
      return item ? (item.kind === 'header' ? `h:${item.id}` : item.task.id) : index;
    },
    overscan: 6,
  });

  return (
    <div className="view activity-view">
      <header className="view-header">
        <h1>Activity</h1>
        <p className="view-subtitle">
          {status ? `${status.queued} waiting here · ${status.activeRemote} at the service` : 'Loading…'}
        </p>
      </header>
      {items.length === 0 ? (
        <div className="empty-state">
          <h2>{loaded ? 'Nothing running' : 'Loading activity…'}</h2>
          {loaded ? (
            <p>
              Tasks you queue show up here while they run.{' '}
              <button type="button" className="button button-link" onClick={() => navigate('compose')}>
                Compose one
              </button>
            </p>
          ) : null}
        </div>
      ) : (
        <div ref={scrollRef} className="activity-scroll" data-testid="activity-list">
          <div className="virtual-inner" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((row) => {
              const item = items[row.index];
              if (!item) return null;
              return (
                <div
                  key={row.key}
                  data-index={row.index}
                  ref={virtualizer.measureElement}
                  className="virtual-item"
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  {item.kind === 'header' ? (
                    <h2 className="section-heading" data-testid="activity-section" data-section={item.id}>
                      {item.title} <span className="count">{item.count}</span>
                    </h2>
                  ) : (
                    <ActivityRow task={item.task} now={now} />
                  )}
                </div>
              );
            })}
          </div>
        </div>
      )}
    </div>
  );
}
