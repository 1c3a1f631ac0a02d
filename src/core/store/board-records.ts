/**
 * Boards (migration 13): named collections of tasks, a task on any number of them. Counts leave
 * out the tasks in Recently deleted (they are on no board's view until restored) and are kept by
 * triggers (migration 19); a board's list is a filter of the library list (`TaskFilter.board`,
 * list-query.ts).
 */
import { type BoardChangeOutcome, type BoardView, boardNameProblem } from '../../shared/index.ts';
import type { StoreCore } from './store-core.ts';
import { LibraryStoreError } from './store-errors.ts';

const BOARD_SQL = {
  // boards.tasks is kept by triggers (migration 19): no board's tasks are counted here
  list: 'SELECT id, name, tasks FROM boards ORDER BY name COLLATE NOCASE, id',
  one: 'SELECT id, name, tasks FROM boards WHERE id = ?',
  byName: 'SELECT id FROM boards WHERE name = ? COLLATE NOCASE',
  insert: 'INSERT INTO boards (name, created_at) VALUES (?, ?)',
  rename: 'UPDATE boards SET name = ? WHERE id = ?',
  remove: 'DELETE FROM boards WHERE id = ?',
  add: `INSERT OR IGNORE INTO board_tasks (board_id, task_id, added_at)
    SELECT $board, id, $now FROM tasks WHERE id = $task AND deleted_at IS NULL`,
  isTask: 'SELECT deleted_at FROM tasks WHERE id = ?',
  take: 'DELETE FROM board_tasks WHERE board_id = ? AND task_id = ?',
  namesOf: `SELECT b.name FROM board_tasks AS bt JOIN boards AS b ON b.id = bt.board_id
    WHERE bt.task_id = ? ORDER BY b.name COLLATE NOCASE`,
} as const;

function boardOf(row: Record<string, unknown>): BoardView {
  return { id: Number(row.id), name: String(row.name), tasks: Number(row.tasks ?? 0) };
}

export class BoardRecords {
  readonly #core: StoreCore;

  constructor(core: StoreCore) {
    this.#core = core;
  }

  list(): BoardView[] {
    return this.#core.cache.get(BOARD_SQL.list).all().map(boardOf);
  }

  get(id: number): BoardView | null {
    const row = this.#core.cache.get(BOARD_SQL.one).get(id);
    return row ? boardOf(row) : null;
  }

  byName(name: string): BoardView | null {
    const row = this.#core.cache.get(BOARD_SQL.byName).get(name.trim());
    return row ? this.get(Number(row.id)) : null;
  }

  create(name: string): BoardView {
    const wanted = this.#checkedName(name, null);
    return this.#core.transaction(() => {
      const made = this.#core.cache.get(BOARD_SQL.insert).run(wanted, this.#core.nowIso());
      return this.get(Number(made.lastInsertRowid)) as BoardView;
    });
  }

  /**
   * The board of this name in any case, made when there is none: putting tasks on a board by its
   * name (the CLI's board add, the window's Add to board with a name, a task.json's boards).
   */
  namedOrMade(name: string): BoardView {
    const problem = boardNameProblem(name);
    if (problem) throw new LibraryStoreError(problem);
    return this.#core.transaction(() => this.byName(name) ?? this.create(name));
  }

  rename(id: number, name: string): BoardView | null {
    const wanted = this.#checkedName(name, id);
    const changed = this.#core.transaction(() => this.#core.cache.get(BOARD_SQL.rename).run(wanted, id));
    return Number(changed.changes) === 0 ? null : this.get(id);
  }

  /** Deletes the board (its tasks stay in the library). False when there is no such board. */
  delete(id: number): boolean {
    return this.#core.transaction(() => Number(this.#core.cache.get(BOARD_SQL.remove).run(id).changes) > 0);
  }

  /** Puts these tasks on the board (those already on it stay as they are). Null when there is no such board. */
  add(id: number, taskIds: readonly string[]): BoardChangeOutcome | null {
    const core = this.#core;
    if (this.get(id) === null) return null;
    const now = core.nowIso();
    return core.transaction(() => {
      let changed = 0;
      const missing: string[] = [];
      for (const task of new Set(taskIds)) {
        const row = core.cache.get(BOARD_SQL.isTask).get(task);
        if (!row || row.deleted_at !== null) missing.push(task);
        else changed += Number(core.cache.get(BOARD_SQL.add).run({ board: id, task, now }).changes);
      }
      return { board: this.get(id) as BoardView, changed, missing };
    });
  }

  /** Takes these tasks off the board. Null when there is no such board. */
  remove(id: number, taskIds: readonly string[]): BoardChangeOutcome | null {
    const core = this.#core;
    if (this.get(id) === null) return null;
    return core.transaction(() => {
      let changed = 0;
      const missing: string[] = [];
      for (const task of new Set(taskIds)) {
        if (!core.cache.get(BOARD_SQL.isTask).get(task)) missing.push(task);
        else changed += Number(core.cache.get(BOARD_SQL.take).run(id, task).changes);
      }
      return { board: this.get(id) as BoardView, changed, missing };
    });
  }

  /** The names of the boards a task is on, A to Z. */
  namesOf(taskId: string): string[] {
    return this.#core.cache
      .get(BOARD_SQL.namesOf)
      .all(taskId)
      .map((r) => String(r.name));
  }

  /** The name trimmed, or a LibraryStoreError saying why it cannot be (bad, or another board's). */
  #checkedName(name: string, self: number | null): string {
    const problem = boardNameProblem(name);
    if (problem) throw new LibraryStoreError(problem);
    const wanted = name.trim();
    const taken = this.#core.cache.get(BOARD_SQL.byName).get(wanted);
    if (taken && Number(taken.id) !== self) {
      throw new LibraryStoreError(`a board named ${JSON.stringify(wanted)} already exists`);
    }
    return wanted;
  }
}
