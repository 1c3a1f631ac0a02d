/**
 * A video result's poster, drawn by the window once and sent as a small PNG in Base64
 * (engine/poster-saving.ts checks it and records it as the output's thumbnail).
 */

import { savePoster } from '../../core/engine/saving/poster-saving.ts';
import { Base64DecodeError, decodeBase64Strict } from '../../core/inputs/index.ts';
import type { Task } from '../../shared/index.ts';
import type { CallContext } from './call-context.ts';
import { StudioCallError } from './call-errors.ts';

export function posterCalls(ctx: CallContext) {
  return {
    'tasks.savePoster': async (args: { id: string; index: number; png: string }): Promise<Task> => {
      if (!ctx.engine().store.getTask(args.id)) {
        throw new StudioCallError('not-found', 'this task is not in the library', 'id');
      }
      let png: Uint8Array;
      try {
        png = decodeBase64Strict(args.png);
      } catch (err) {
        if (!(err instanceof Base64DecodeError)) throw err;
        throw new StudioCallError('invalid-input', `the poster is not Base64: ${err.message}`, 'png');
      }
      return savePoster(
        { libraryDir: ctx.libraryDir(), store: ctx.engine().store },
        args.id,
        args.index,
        png,
      );
    },
  };
}
