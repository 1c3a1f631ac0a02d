/**
 * The orders the library list can be sorted in (LibraryStore.listTasks and the `tasks.list` call):
 * - `newest` (default): created first → last, newest first;
 * - `oldest`: oldest first;
 * - `starredFirst`: favourites first, each group newest first;
 * - `title`: by title A to Z, without regard to case (tasks with the same title oldest first);
 * - `costliest`: what the task cost, highest first (reported usage once known, else the estimate;
 *   nothing for a task the service never created); equal costs newest first;
 * - `longest`: the length of the task's longest output (a song's duration), longest first; tasks
 *   without one come last; equal lengths newest first.
 */
export const LIST_ORDERS = ['newest', 'oldest', 'starredFirst', 'title', 'costliest', 'longest'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];
