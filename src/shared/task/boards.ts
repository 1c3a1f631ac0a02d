/**
 * Boards (issue 22, item 1): named collections of tasks. A task may be on several boards;
 * deleting a board never deletes a task; a task in Recently deleted is on no board's view (it
 * comes back with its boards when restored); deleting a task forever takes it off its boards.
 */
import { z } from 'zod';
import {
  hasControlCharacters,
  hasDirectionControls,
  hasInvisibleCharacters,
} from '../text/control-characters.ts';

export const BOARD_NAME_MAX = 80;

/** A board as listed: its name and how many tasks (not in Recently deleted) it holds. */
export interface BoardView {
  id: number;
  name: string;
  tasks: number;
}

/**
 * What is wrong with a board name (trimmed first), or null: the one rule of the window, the
 * command line and a task.json's boards (the store checks it: board-records.ts).
 */
export function boardNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'a board needs a name';
  if (trimmed.length > BOARD_NAME_MAX) return `a board name is at most ${BOARD_NAME_MAX} characters`;
  if (hasControlCharacters(trimmed) || /[\n\t]/.test(trimmed)) return 'a board name is one line of text';
  // U+202E and its kind make a name read as another (Holiday\u202egpj.exe as Holidayexe.jpg)
  if (hasDirectionControls(trimmed)) return 'a board name cannot hold direction controls (such as U+202E)';
  // "Harbo\u200burs" would be a second "Harbours"
  if (hasInvisibleCharacters(trimmed))
    return 'a board name cannot hold invisible characters (such as U+200B, a zero-width space): it would look like another';
  return null;
}

/** A board name as it crosses a call: trimmed, and refused in words when it cannot be one. */
export const BoardNameSchema = z
  .string()
  .max(1000)
  .transform((name) => name.trim())
  .superRefine((name, ctx) => {
    const problem = boardNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** A board's id as it crosses a call. */
export const BoardIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** What adding tasks to a board, or taking them off, did. */
export interface BoardChangeOutcome {
  board: BoardView;
  /** How many tasks were added (or taken off); those already on it (or not on it) are not counted. */
  changed: number;
  /** Ids that are no task of the library, or (when adding) a task in Recently deleted: left alone. */
  missing: string[];
}
