/**
 * Recently deleted (issue 17, items 10 and 11): moving a selection there, bringing tasks back,
 * deleting forever, emptying it, and the ids of a selection for the actions that take ids. A
 * selection is the window's ids or "all that match this filter, except these"; the engine
 * resolves it page by page (trash-actions.ts).
 */
import {
  MAX_SELECTION_IDS,
  type TaskSelection,
  type TrashActionOutcome,
  type TrashOutcome,
} from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';
import { StudioCallError } from './call-errors.ts';

/** The ids a selection stands for, newest first (at most MAX_SELECTION_IDS, else refused). */
export function selectionIds(ctx: CallContext, selection: TaskSelection): string[] {
  const store = ctx.engine().store;
  if ('ids' in selection) return store.selectedTasks(selection.ids).map((t) => t.id);
  const ids: string[] = [];
  let after: number | null = null;
  for (;;) {
    const page = store.selectionPage(selection.filter, selection.except, after, 500);
    if (page.length === 0) return ids;
    ids.push(...page.map((t) => t.id));
    if (ids.length > MAX_SELECTION_IDS) {
      throw new StudioCallError(
        'invalid-input',
        `this action takes at most ${MAX_SELECTION_IDS.toLocaleString('en-US')} tasks at once; narrow the filter or select fewer`,
        'selection',
      );
    }
    after = page[page.length - 1]?.seq ?? null;
  }
}

export function trashCalls(ctx: CallContext) {
  return {
    'tasks.delete': async (args: { selection: TaskSelection }): Promise<TrashOutcome> =>
      ctx.engine().trash(args.selection),
    // an Undo (one delete's deletedAt) page by page: a retention run's can be 85,000 tasks
    'tasks.restore': async (
      args: { selection: TaskSelection } | { deletedAt: string },
    ): Promise<TrashActionOutcome> =>
      'selection' in args
        ? ctx.engine().restore(args.selection)
        : ctx.engine().restoreDeleted(args.deletedAt),
    'tasks.deleteForever': async (args: { selection: TaskSelection }): Promise<TrashActionOutcome> =>
      ctx.engine().deleteForever(args.selection),
    'tasks.emptyTrash': async (): Promise<TrashActionOutcome> => ctx.engine().emptyTrash(),
    'tasks.selectionIds': async (args: { selection: TaskSelection }): Promise<string[]> =>
      selectionIds(ctx, args.selection),
  };
}
