/**
 * How many tasks, in words, as every question, notice and line of the app says it (the window,
 * the CLI and the engine's log alike): "1 task", "3,000 tasks" (the app's number format, en-US
 * with the thousands separator), and a count the library stopped at its cap (COUNT_CAP: a search,
 * a board) as "more than 1,000 tasks", never as a smaller number. Never "task(s)". Any other
 * count of things (pictures, songs, videos, 3D models, files) is worded by countWord, alike.
 */

/** A count of things: "1 picture", "6,666 pictures", "2 3D models"; `many` when not `one` + s. */
export const countWord = (n: number, one: string, many = `${one}s`): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "1 task", "3,000 tasks". */
export const tasksWord = (n: number): string => countWord(n, 'task');

/** How many tasks a selection holds; `capped`: the library stopped counting, so there are more. */
export interface CountedTasks {
  count: number;
  capped?: boolean;
}

/** "3 tasks", or "more than 1,000 tasks" for a count stopped at the cap. */
export function countedTasksWord({ count, capped }: CountedTasks): string {
  return capped ? `more than ${tasksWord(count)}` : tasksWord(count);
}
