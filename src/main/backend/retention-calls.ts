/**
 * Retention and the library's size (issue 22, item 4): the rules as kept, their preview, keeping
 * them (switched on, they run at once, after the answer: the status's retentionRun says how far),
 * and the saved results' size by kind. The engine does the work
 * (core/engine/actions/retention-actions.ts), so the CLI's `media-task retention` is the same.
 */
import type {
  LibrarySize,
  RetentionOutcome,
  RetentionRules,
  RetentionView,
} from '../../shared/task/retention.ts';
import type { CallContext } from './call-context.ts';

export function retentionCalls(ctx: CallContext) {
  const retention = () => ctx.engine().retention;
  return {
    'library.size': async (): Promise<LibrarySize> => retention().librarySize(),
    'retention.get': async (): Promise<RetentionView> => retention().view(),
    'retention.preview': async (args: RetentionRules): Promise<RetentionOutcome> => retention().preview(args),
    // answered once the run has started: its progress reaches the window in the engine's status
    'retention.set': async (args: RetentionRules): Promise<RetentionView> =>
      retention().setRules(args, { wait: false }),
  };
}
