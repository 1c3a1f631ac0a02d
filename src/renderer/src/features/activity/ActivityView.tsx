/**
 * Every active and recent task, live: a virtualized list (it stays light with a thousand tasks
 * streaming) of sections, decisions first. Failures can be dismissed (they stay in the
 * library), and the ones older than a day are offered after the last day's. A batch is one group
 * (BatchGroup), in the first section any of its tasks is in; each section counts the rows it
 * lists (activity-items.ts).
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { useNow } from '../../hooks/useNow.ts';
import { connectionStateOf } from '../../model/connection-state.ts';
import { retriesByFailure, retryOf } from '../../model/task-retries.ts';
import { activitySections } from '../../model/task-status.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { ActivityRow } from './ActivityRow.tsx';
import { type ActivityItem, activityItems, atServiceWords } from './activity-items.ts';
import { BatchGroup } from './BatchGroup.tsx';
import { dismissedHere, useFailureList } from './failure-list.ts';

const DAY_MS = 86_400_000;

function OlderFailures({ count, before }: { count: number; before: string }) {
  const loading = useFailureList((s) => s.loadingOlder);
  const shown = useFailureList((s) => s.showOlder);
  const loadOlder = useFailureList((s) => s.loadOlder);
  return (
    <div className="older-failures">
      <button
        type="button"
        className="button button-small"
        data-testid="older-failures"
        disabled={loading}
        onClick={() => void loadOlder(before)}
      >
        {loading
          ? 'Loading older failures…'
          : `Show ${count.toLocaleString('en-US')} ${shown ? 'more ' : ''}older failure${count === 1 ? '' : 's'}`}
      </button>
    </div>
  );
}

export function ActivityView() {
  const rev = useTasks((s) => s.rev);
  const byId = useTasks((s) => s.byId);
  const loaded = useTasks((s) => s.activityLoaded);
  const status = useStudio((s) => s.status);
  const library = useStudio((s) => s.settings?.libraryInUse ?? '');
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const dismissed = useFailureList((s) => s.dismissed);
  const allFailures = useFailureList((s) => s.showOlder);
  const olderTotal = useFailureList((s) => s.olderTotal);
  const navigate = useUi((s) => s.navigate);
  const now = useNow(1000);
  const minute = Math.floor(now / 60_000);
  const scrollRef = useRef<HTMLDivElement>(null);
  const connection = connectionStateOf(status);
  // the last day, by the minute: older failures are the ones created before it
  const before = new Date(minute * 60_000 - DAY_MS).toISOString();
  const hidden = useMemo(() => dismissedHere(dismissed, library), [dismissed, library]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed (a failure counted again)
  useEffect(() => {
    void useFailureList.getState().countOlder(before);
  }, [before, library, Math.floor(rev / 50)]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed
  const retries = useMemo(() => retriesByFailure(byId.values()), [rev, byId]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed; sections move on by the minute
  const items = useMemo<ActivityItem[]>(() => {
    const sections = activitySections(byId.values(), minute * 60_000 + 59_999, { hidden, allFailures });
    // older failures not listed yet: counted by the library, less the dismissed and the listed ones
    const failed = sections.find((s) => s.id === 'failed')?.tasks ?? [];
    const listedOlder = failed.filter((t) => t.createdAt < before).length;
    let hiddenOlder = 0;
    for (const [id, entry] of dismissed) if (hidden.has(id) && entry.createdAt < before) hiddenOlder += 1;
    const older = Math.max(0, (olderTotal ?? 0) - listedOlder - hiddenOlder);
    return activityItems(sections, byId.values(), older);
  }, [rev, byId, minute, hidden, allFailures, olderTotal, dismissed, before]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => {
      const kind = items[index]?.kind;
      return kind === 'header' ? 48 : kind === 'older' ? 52 : kind === 'batch' ? 170 : 132;
    },
    getItemKey: (index) => {
      const item = items[index];
      if (!item) return index;
      if (item.kind === 'batch') return `b:${item.batchId}`;
      return item.kind === 'header' ? `h:${item.id}` : item.kind === 'older' ? 'older' : item.task.id;
    },
    overscan: 6,
  });

  const nothing = items.length === 0;
  return (
    <div className="view activity-view">
      <header className="view-header">
        <h1>Activity</h1>
        <p className="view-subtitle">
          {/* the line below, when the service tells, says what is at the service, this library's included */}
          {status
            ? `${status.queued} waiting here${status.atService ? '' : ` · ${status.activeRemote} at the service`}`
            : 'Loading…'}
          {demo ? ' · demo library' : ''}
        </p>
        {status?.atService ? (
          <p className="view-subtitle" data-testid="at-service">
            {atServiceWords(status.atService)}
          </p>
        ) : null}
      </header>
      {nothing ? (
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
                  ) : item.kind === 'older' ? (
                    <OlderFailures count={item.count} before={before} />
                  ) : item.kind === 'batch' ? (
                    <BatchGroup
                      batchId={item.batchId}
                      tasks={item.tasks}
                      now={now}
                      connection={connection}
                      demo={demo}
                      retries={retries}
                    />
                  ) : (
                    <ActivityRow
                      task={item.task}
                      now={now}
                      connection={connection}
                      demo={demo}
                      retry={retryOf(item.task, retries)}
                    />
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
