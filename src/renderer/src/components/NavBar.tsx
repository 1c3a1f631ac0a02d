/**
 * The left navigation: the five views, with the active count and an uncertain badge, and the
 * boards (BoardsNav). In a small
 * window each item's name is a tooltip (layout.css), hidden once the item is clicked until the
 * pointer leaves it, so it does not cover the view it has just opened.
 */
import { useMemo, useState } from 'react';
import { BoardsNav } from '../features/boards/BoardsNav.tsx';
import { taskCounts } from '../model/task-status.ts';
import { useTasks } from '../state/tasks-state.ts';
import { useUi, type View } from '../state/ui-state.ts';

const ITEMS: { view: View; label: string; icon: string }[] = [
  { view: 'compose', label: 'Compose', icon: '✚' },
  { view: 'activity', label: 'Activity', icon: '◔' },
  { view: 'library', label: 'Library', icon: '▦' },
  { view: 'history', label: 'Account history', icon: '⇣' },
  { view: 'settings', label: 'Settings', icon: '⚙' },
];

export function NavBar() {
  const view = useUi((s) => s.view);
  const navigate = useUi((s) => s.navigate);
  const rev = useTasks((s) => s.rev);
  const byId = useTasks((s) => s.byId);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed
  const counts = useMemo(() => taskCounts(byId.values()), [rev, byId]);
  const [tipHidden, setTipHidden] = useState<View | null>(null);

  return (
    <nav className="nav" aria-label="Main">
      <div className="brand" aria-hidden="true">
        <span className="brand-mark">◐</span> Media Task Studio
      </div>
      <ul className="nav-list">
        {ITEMS.map((item) => (
          <li key={item.view}>
            <button
              type="button"
              className="nav-item"
              aria-current={view === item.view ? 'page' : undefined}
              onClick={() => {
                setTipHidden(item.view);
                navigate(item.view);
              }}
              onPointerLeave={() => setTipHidden(null)}
              onBlur={() => setTipHidden(null)}
              data-tip-hidden={tipHidden === item.view ? '' : undefined}
              data-testid={`nav-${item.view}`}
            >
              <span className="nav-icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="nav-label">{item.label}</span>
              {item.view === 'activity' && counts.active > 0 ? (
                <span className="nav-count" data-testid="active-count">
                  <span className="visually-hidden">, </span>
                  {counts.active}
                  <span className="visually-hidden"> active</span>
                </span>
              ) : null}
              {item.view === 'activity' && counts.uncertain > 0 ? (
                <span className="nav-badge" data-testid="uncertain-count">
                  <span className="visually-hidden">, </span>
                  {counts.uncertain}
                  <span className="visually-hidden"> need a decision</span>
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
      <BoardsNav />
    </nav>
  );
}
