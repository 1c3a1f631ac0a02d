/**
 * Retention's run as the window follows it (issue 22, items 4 and 6): a run goes on after the
 * library opens or the rules are switched on (a minute or so at a million tasks), and the
 * engine's status says how far it is (`retentionRun`, at most one delivery per 50 ms). Settings ›
 * Retention shows it; when it ends, wherever the user is, a toast says what it moved, with an
 * Undo that takes all of it back (one deletedAt).
 */
import { TRASH_DAYS } from '../../../../shared/index.ts';
import {
  diskSizeText,
  kindCountsText,
  nothingToMoveText,
  type RetentionOutcome,
  type RetentionRunProgress,
} from '../../../../shared/task/retention.ts';
import { invoke } from '../../bridge.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useUi } from '../../state/ui-state.ts';
import { tasksWord, undoTrash } from '../library/recently-deleted.ts';

/** The line Settings › Retention shows while a run goes on. */
export function retentionRunText(run: RetentionRunProgress): string {
  if (run.tasks === 0) return 'Moving old tasks to Recently deleted…';
  return `Moving old tasks to Recently deleted: ${run.tasks.toLocaleString('en-US')} so far…`;
}

/** What the rules' preview says: how many tasks would go now, by kind, and the space it frees. */
export function retentionPreviewText(p: RetentionOutcome): string {
  if (p.tasks === 0) return nothingToMoveText(p);
  // a big library's preview counts its oldest tasks only (it answers at once): more may go
  const atLeast = p.atLeast ? 'at least ' : '';
  return `Would move ${atLeast}${tasksWord(p.tasks)} to Recently deleted now (${kindCountsText(p.byKind)}); frees ${atLeast}${diskSizeText(p.bytes)} once they leave it, after ${TRASH_DAYS} days.`;
}

/** What the rules' preview says while a run goes on: the tasks it has not reached yet are no answer. */
export const RUN_PREVIEW_TEXT = 'A run is moving tasks now: what else would go shows once it has ended.';

/** Says what a run moved once it has ended (with Undo). Returns the unsubscribe. */
export function watchRetentionRuns(): () => void {
  return useStudio.subscribe((state, before) => {
    const was = before.status?.retentionRun ?? null;
    const now = state.status?.retentionRun ?? null;
    if (was === null || now?.deletedAt === was.deletedAt) return;
    void invoke('retention.get', {}).then(
      (view) => {
        const last = view.lastRun;
        if (!last?.deletedAt || last.deletedAt !== was.deletedAt || last.tasks === 0) return;
        const deletedAt = last.deletedAt;
        useUi
          .getState()
          .pushToast('success', `Retention moved ${tasksWord(last.tasks)} to Recently deleted`, {
            label: 'Undo',
            run: () => void undoTrash(deletedAt, null),
          });
      },
      () => {}, // the section shows the last run when it is opened
    );
  });
}
