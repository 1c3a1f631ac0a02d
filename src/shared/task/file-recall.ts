/**
 * A file the app made, recalled (issue 22, item 2): the task it came from, found by the
 * parameters embedded in the file (an export's copy) or by its checksum among the library's
 * results, and the draft that opens its task's form filled in.
 */
import type { DraftView } from './task-draft.ts';

export interface FileRecall {
  /** The file's name (not its folder). */
  fileName: string;
  /** How it was recognised: its own embedded parameters, or its checksum in this library. */
  origin: 'embedded' | 'library';
  /** Where the parameters came from, in words: `the PNG text chunk of kite.png`, `output 1 of “A kite” in this library`. */
  source: string;
  /** The task in this library the file came from, when it is here. */
  task: { id: string; title: string } | null;
  /** Which output of that task the file is (0-based), when known. */
  outputIndex: number | null;
  model: string;
  taskType: string;
  /** The catalog's words for the task type. */
  taskLabel: string;
  title: string;
  /** The version of the app that wrote the parameters (embedded only). */
  appVersion: string | null;
  /** The input as recorded (media fields as the record names them). */
  parameters: Record<string, unknown>;
  /** The draft that fills the composer: no webhook; a media field only when it can be used as it is. */
  draft: DraftView;
  /** Media fields that cannot be filled in (a file of someone else's library, or a library input that is gone). */
  missingMedia: string[];
}
