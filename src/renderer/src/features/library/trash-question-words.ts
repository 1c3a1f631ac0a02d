/**
 * The words of the Recently deleted questions (moving a selection there, deleting forever,
 * emptying it), apart from the window's bridge so that they are tested on plain Node.
 */
import { type TaskSelection, TRASH_DAYS } from '../../../../shared/index.ts';
import { countedTasksWord, tasksWord } from '../../../../shared/task/task-count-words.ts';

export { tasksWord };

export type TrashQuestion =
  | { kind: 'trash'; selection: TaskSelection; count: number; running: number; capped?: boolean }
  | { kind: 'forever'; selection: TaskSelection; count: number; capped?: boolean }
  | { kind: 'empty'; count: number };

/** The words of the question's dialog. */
export function questionWords(q: TrashQuestion): { title: string; body: string[]; confirm: string } {
  const many = (count: number) => countedTasksWord({ count, capped: q.kind !== 'empty' && q.capped });
  if (q.kind === 'trash') {
    const moving = q.count - q.running;
    const body = [
      `They stay in Recently deleted for ${TRASH_DAYS} days with their files: restore them from there, or delete them forever. Tasks still queued on this computer are cancelled first (never sent).`,
    ];
    if (q.running > 0)
      body.push(
        `${tasksWord(q.running)} the service is working on stay here; delete them once they have ended.`,
      );
    return {
      title: `Move ${many(moving)} to Recently deleted?`,
      body,
      confirm: `Move ${many(moving)}`,
    };
  }
  if (q.kind === 'forever') {
    return {
      title: `Delete ${many(q.count)} forever?`,
      body: ['Their records and files are removed from this computer. This cannot be undone.'],
      confirm: `Delete ${many(q.count)} forever`,
    };
  }
  return {
    title: 'Empty Recently deleted?',
    body: [`All ${tasksWord(q.count)} in it are deleted forever, with their files. This cannot be undone.`],
    confirm: 'Empty Recently deleted',
  };
}
