/**
 * Account history (issue 20, item 2): the tasks the account made anywhere (the vendor's web
 * workspace, another computer, this app), a page at a time, newest first, by family, date and
 * state; each row says whether the library holds it. The user ticks tasks the library does not
 * hold and brings them in with their results (tasks.importRemote); each outcome is said on its
 * row. A service without history, or none set up, is said in a sentence instead of the list.
 */
import { useCallback, useEffect, useId, useState } from 'react';
import {
  type AccountHistoryPage,
  type AccountHistoryQuery,
  HISTORY_STATES,
  historyFamilies,
  type RemoteImportOutcome,
} from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { asSentence, errorText } from '../../model/studio-error.ts';
import { useStudio } from '../../state/studio-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';

const FAMILIES = historyFamilies();

type Filters = Omit<AccountHistoryQuery, 'page'>;

function createdText(iso: string | null): string {
  if (!iso) return 'unknown time';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function AccountHistoryView() {
  const id = useId();
  const service = useStudio((s) => s.status?.service ?? 'none');
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const navigate = useUi((s) => s.navigate);
  const openDetail = useUi((s) => s.openDetail);
  const [filters, setFilters] = useState<Filters>({});
  const [pageNo, setPageNo] = useState(1);
  const [page, setPage] = useState<AccountHistoryPage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [outcomes, setOutcomes] = useState<ReadonlyMap<string, RemoteImportOutcome>>(new Map());
  const [importing, setImporting] = useState(false);

  const load = useCallback(async (query: AccountHistoryQuery) => {
    setLoading(true);
    try {
      setPage(await invoke('account.history', query));
      setProblem(null);
    } catch (err) {
      setPage(null);
      setProblem(asSentence(errorText(err)));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (service === 'none') return;
    void load({ page: pageNo, ...filters });
  }, [load, pageNo, filters, service]);

  const setFilter = (patch: Filters) => {
    setFilters((f) => {
      const next = { ...f, ...patch };
      for (const key of Object.keys(next) as (keyof Filters)[]) if (!next[key]) delete next[key];
      return next;
    });
    setPageNo(1);
    setChosen(new Set());
  };

  const toggle = (remoteId: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(remoteId)) next.delete(remoteId);
      else next.add(remoteId);
      return next;
    });

  const importChosen = async () => {
    if (chosen.size === 0) return;
    setImporting(true);
    try {
      const done = await invoke('tasks.importRemote', { ids: [...chosen] });
      setOutcomes((m) => new Map([...m, ...done.map((o) => [o.remoteId, o] as const)]));
      setChosen(new Set());
      // the rows now held by the library say so
      setPage(
        (p) =>
          p && {
            ...p,
            rows: p.rows.map((r) => {
              const o = done.find((d) => d.remoteId === r.remoteId);
              return o?.taskId ? { ...r, inLibrary: o.taskId } : r;
            }),
          },
      );
    } catch (err) {
      toastError(err);
    } finally {
      setImporting(false);
    }
  };

  const rows = page?.rows ?? [];
  const open = (taskId: string) => {
    navigate('library');
    openDetail(taskId);
  };

  return (
    <div className="view history-view">
      <header className="view-header">
        <h1>Account history</h1>
        <p className="view-subtitle">
          Tasks your account made anywhere — the service’s web workspace, another computer, this app. Bring in
          the ones your library lacks, with their results, while the service still keeps them.
          {demo ? ' Demo mode shows the sandbox’s history.' : ''}
        </p>
      </header>
      {service === 'none' ? (
        <p className="history-problem" role="status" data-testid="history-problem">
          No service is set up yet: store your API key in Settings (or turn on demo mode) to see your
          account’s tasks.
        </p>
      ) : (
        <>
          <div className="filters history-filters">
            <label className="filter">
              Family
              <select
                value={filters.family ?? ''}
                onChange={(e) => setFilter({ family: e.target.value || undefined })}
                data-testid="history-family"
              >
                <option value="">All families</option>
                {FAMILIES.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            </label>
            <label className="filter">
              From
              <input
                type="date"
                value={filters.since ?? ''}
                onChange={(e) => setFilter({ since: e.target.value || undefined })}
                data-testid="history-since"
              />
            </label>
            <label className="filter">
              To
              <input
                type="date"
                value={filters.until ?? ''}
                onChange={(e) => setFilter({ until: e.target.value || undefined })}
                data-testid="history-until"
              />
            </label>
            <label className="filter">
              State
              <select
                value={filters.state ?? ''}
                onChange={(e) =>
                  setFilter({ state: (e.target.value || undefined) as AccountHistoryQuery['state'] })
                }
                data-testid="history-state"
              >
                <option value="">Any state</option>
                {HISTORY_STATES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="button button-primary history-import"
              disabled={chosen.size === 0 || importing}
              onClick={() => void importChosen()}
            >
              {importing ? 'Importing…' : `Import selected${chosen.size > 0 ? ` (${chosen.size})` : ''}`}
            </button>
          </div>
          {problem ? (
            <p className="history-problem" role="alert" data-testid="history-problem">
              {problem}
            </p>
          ) : rows.length === 0 ? (
            <p className="history-empty" data-testid="history-empty">
              {loading || !page
                ? 'Reading the account’s history…'
                : 'No tasks match these filters on this page.'}
            </p>
          ) : (
            <table className="history-table" aria-labelledby={`${id}-caption`} data-testid="history-table">
              <caption id={`${id}-caption`} className="visually-hidden">
                The account’s tasks, page {page?.page}
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Select</span>
                  </th>
                  <th scope="col">Created</th>
                  <th scope="col">Model and task type</th>
                  <th scope="col">State</th>
                  <th scope="col">Task id</th>
                  <th scope="col">In library</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => {
                  const outcome = outcomes.get(r.remoteId);
                  return (
                    <tr key={r.remoteId} data-testid="history-row" data-remote-id={r.remoteId}>
                      <td>
                        <input
                          type="checkbox"
                          checked={chosen.has(r.remoteId)}
                          disabled={r.inLibrary !== null}
                          onChange={() => toggle(r.remoteId)}
                          aria-label={`Select ${r.model ?? 'task'} ${r.taskType ?? ''} ${r.remoteId}`}
                        />
                      </td>
                      <td>{createdText(r.createdAt)}</td>
                      <td className="history-what">
                        {r.model ?? 'unknown model'} <span className="history-type">{r.taskType ?? ''}</span>
                      </td>
                      <td>{r.status ?? 'unknown'}</td>
                      <td>
                        <code className="history-id">{r.remoteId}</code>
                      </td>
                      <td data-testid="history-held">
                        {r.inLibrary ? (
                          <button
                            type="button"
                            className="button button-link"
                            onClick={() => open(r.inLibrary as string)}
                          >
                            In library
                          </button>
                        ) : (
                          '—'
                        )}
                        {outcome && outcome.outcome !== 'queued' ? (
                          <span
                            className={`history-outcome history-outcome-${outcome.outcome}`}
                            data-testid="history-outcome"
                          >
                            {asSentence(outcome.message)}
                          </span>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <nav className="history-pages" aria-label="History pages">
            <button
              type="button"
              className="button"
              disabled={pageNo <= 1 || loading}
              onClick={() => setPageNo((n) => n - 1)}
            >
              Newer
            </button>
            <span data-testid="history-page">
              Page {pageNo}
              {page?.total != null ? ` · ${page.total} tasks` : ''}
            </span>
            <button
              type="button"
              className="button"
              disabled={!page?.hasMore || loading}
              onClick={() => setPageNo((n) => n + 1)}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </div>
  );
}
