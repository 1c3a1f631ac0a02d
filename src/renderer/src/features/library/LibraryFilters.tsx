/**
 * The library's filter bar: search (debounced), type, what a task makes, model, board, state, dates, favourites and sort. In a
 * narrow library (a small window) it is one row: the search and a "Filters" toggle, counting the
 * filters in use, that shows the others (view-library.css hides them by the bar's width).
 */
import { useEffect, useId, useRef, useState } from 'react';
import { catalogModelNames, LIST_ORDERS, MAKES_FILTER_KINDS } from '../../../../shared/index.ts';
import { useDebounced } from '../../hooks/useDebounced.ts';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import {
  EMPTY_FILTERS,
  type LibraryFilters as Filters,
  hasActiveFilters,
} from '../../model/library-query.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { BoardFilter } from '../boards/BoardFilter.tsx';

const SEARCH_DEBOUNCE_MS = 250;

/** Every sort order the list call takes, in plain words (a new order needs its words here). */
/** How many of the filters behind the "Filters" toggle are in use (the search shows on its own). */
function hiddenFilterCount(filters: Filters): number {
  return [
    filters.family !== '',
    filters.makes !== '',
    filters.model !== '',
    filters.state !== '',
    filters.from !== '',
    filters.to !== '',
    filters.favorite,
    filters.board !== null,
  ].filter(Boolean).length;
}

/** The Makes filter's words for each kind a catalog entry makes. */
const MAKES_LABELS: Record<(typeof MAKES_FILTER_KINDS)[number], string> = {
  image: 'Pictures',
  video: 'Videos',
  '3d': '3D models',
  audio: 'Sounds',
};

const MODEL_NAMES = catalogModelNames();

const ORDER_LABELS: Record<Filters['order'], string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  starredFirst: 'Favourites first',
  title: 'Title (A to Z)',
  costliest: 'Highest cost first',
  longest: 'Longest first',
};

export function LibraryFilters() {
  const id = useId();
  const filters = useTasks((s) => s.gallery.filters);
  const setFilters = useTasks((s) => s.setFilters);
  const [search, setSearch] = useState(filters.search);
  const settled = useDebounced(search, SEARCH_DEBOUNCE_MS);
  const searchRef = useRef<HTMLInputElement>(null);
  const [moreShown, setMoreShown] = useState(false);
  const inUse = hiddenFilterCount(filters);
  useFocusRequest('search', searchRef);

  useEffect(() => {
    if (settled !== useTasks.getState().gallery.filters.search) setFilters({ search: settled });
  }, [settled, setFilters]);
  useEffect(() => {
    setSearch((current) => (current === filters.search ? current : filters.search));
  }, [filters.search]);

  const set = (patch: Partial<Filters>) => setFilters(patch);

  return (
    // biome-ignore lint/a11y/useSemanticElements: role=search on a div is the landmark every browser and checker knows
    <div className="filters" role="search" aria-label="Filter the library">
      <div className="filter filter-search">
        <label htmlFor={`${id}-search`} className="visually-hidden">
          Search library
        </label>
        <input
          ref={searchRef}
          id={`${id}-search`}
          type="search"
          placeholder="Search titles, prompts, lyrics…"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') setFilters({ search });
          }}
        />
      </div>
      {hasActiveFilters(filters) ? (
        <button
          type="button"
          className="button button-small button-quiet filters-clear"
          onClick={() => {
            setSearch('');
            setFilters({ ...EMPTY_FILTERS, order: filters.order, trashed: filters.trashed });
            // The button goes away with the filters: keep the focus in the filter row.
            searchRef.current?.focus();
          }}
        >
          Clear filters
        </button>
      ) : null}
      <button
        type="button"
        className="button button-small filters-toggle"
        aria-expanded={moreShown}
        aria-controls={`${id}-more`}
        onClick={() => setMoreShown((shown) => !shown)}
      >
        Filters
        {inUse > 0 ? (
          <span className="filters-toggle-count">
            {inUse}
            <span className="visually-hidden"> active</span>
          </span>
        ) : null}
      </button>
      <div id={`${id}-more`} className="filters-more" data-shown={moreShown ? 'true' : undefined}>
        <div className="filter">
          <label htmlFor={`${id}-family`}>Type</label>
          <select
            id={`${id}-family`}
            value={filters.family}
            onChange={(event) => set({ family: event.target.value as Filters['family'] })}
          >
            <option value="">All types</option>
            <option value="song">Songs</option>
            <option value="face-swap">Face swaps</option>
            <option value="image-edit">Image edits</option>
            <option value="other">Other</option>
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-makes`}>Makes</label>
          <select
            id={`${id}-makes`}
            value={filters.makes}
            onChange={(event) => set({ makes: event.target.value as Filters['makes'] })}
          >
            <option value="">Anything</option>
            {MAKES_FILTER_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {MAKES_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-model`}>Model</label>
          <select
            id={`${id}-model`}
            value={filters.model}
            onChange={(event) => set({ model: event.target.value })}
          >
            <option value="">All models</option>
            {MODEL_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <BoardFilter id={`${id}-board`} />
        <div className="filter">
          <label htmlFor={`${id}-state`}>State</label>
          <select
            id={`${id}-state`}
            value={filters.state}
            onChange={(event) => set({ state: event.target.value as Filters['state'] })}
          >
            <option value="">Any state</option>
            <option value="saved">Saved</option>
            <option value="active">Active</option>
            <option value="failed">Failed</option>
            <option value="uncertain">Uncertain</option>
            <option value="cancelled">Cancelled</option>
            <option value="expired">Expired</option>
          </select>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-from`}>From</label>
          <input
            id={`${id}-from`}
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(event) => set({ from: event.target.value })}
          />
        </div>
        <div className="filter">
          <label htmlFor={`${id}-to`}>To</label>
          <input
            id={`${id}-to`}
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(event) => set({ to: event.target.value })}
          />
        </div>
        <div className="filter filter-check">
          <input
            id={`${id}-fav`}
            type="checkbox"
            checked={filters.favorite}
            onChange={(event) => set({ favorite: event.target.checked })}
          />
          <label htmlFor={`${id}-fav`}>Favourites only</label>
        </div>
        <div className="filter">
          <label htmlFor={`${id}-order`}>Sort</label>
          <select
            id={`${id}-order`}
            value={filters.order}
            onChange={(event) => set({ order: event.target.value as Filters['order'] })}
          >
            {LIST_ORDERS.map((value) => (
              <option key={value} value={value}>
                {ORDER_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
