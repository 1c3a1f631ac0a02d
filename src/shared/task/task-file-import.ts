/**
 * Importing a task from an exported `task.json` is two steps, so a file someone else wrote can
 * do nothing on its own: first it is read and described (what would be sent, to which model, at
 * what price, and the webhook it names), then it is queued only on the user's word, with the
 * files the user picked for inputs the import could not take from the export's own folder.
 */
import type { InputMediaKind } from '../catalog/input-fields.ts';
import type { FileRecall } from './file-recall.ts';

/** One picture or sound of the task, and where the import takes it from. */
export type TaskFileInput = {
  field: string;
  kind: InputMediaKind;
  required: boolean;
} & (
  | /** A file beside the task.json, in the export's own folder (`name`: its name there). */
  { source: 'export-file'; name: string; size: number }
  /** The library's own copy of an input of the task a result file came from (issue 22, item 2). */
  | { source: 'library-file'; name: string; size: number }
  /** An address the service fetches itself. */
  | { source: 'url'; url: string }
  /** Base64 written in the task.json itself (`chars`: its length). */
  | { source: 'inline'; chars: number }
  /**
   * Nothing the import may read: the user picks a file (or leaves an optional one out).
   * `why` says what the task.json named and why it is not read.
   */
  | { source: 'needs-file'; why: string }
);

/** What importing a task.json would queue; nothing is queued until the user confirms it. */
export interface TaskFilePreview {
  /** Names this reading when the user confirms it (the window's second call). */
  importId: string;
  /** The task.json (or result file, issue 22 item 2) read, and its folder (the only place input files are taken from). */
  file: string;
  folder: string;
  /** A result file: what it said of its task (its embedded parameters, or its checksum in this library). */
  recall?: FileRecall;
  title: string;
  /** The model id as it would be sent, and the task type with its label. */
  model: string;
  taskType: string;
  taskLabel: string;
  inputs: TaskFileInput[];
  /** The other input values, as they would be sent. */
  parameters: Record<string, unknown>;
  /** The estimate in micro-dollars; null when the task type has no published price. */
  priceMicros: number | null;
  /** The estimate in words: `$0.01 per image`, or `no published price for …`. */
  priceText: string;
  /** The library task this one re-runs (the task.json's own id), when it is in this library. */
  rerunOf: { id: string; title: string } | null;
  /** The webhook the task.json names, in full; it is sent only when the user keeps it. */
  webhook: { endpoint: string; hasSecret: boolean } | null;
  /** The boards the task.json names: the new task goes on them (each made when missing). */
  boards: string[];
}

/** The user's word on a preview. */
export interface TaskFileChoices {
  /** Files the user picked, by field, for inputs the import could not take (`needs-file`). */
  files: Record<string, string>;
  /** Whether to send the task.json's webhook (off unless the user keeps it). */
  keepWebhook: boolean;
  /** The user accepts a task type with no published price under a budget. */
  acceptUnknownPrice: boolean;
}

/** A size in words: `840 bytes`, `12.5 KB`, `3.2 MB`. */
function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * Where an input of a task.json (or of a result file: `preview.recall`) comes from, in words: the
 * window's summary, import-file's and recall's say the same.
 */
export function taskFileInputText(input: TaskFileInput, preview: Pick<TaskFilePreview, 'recall'>): string {
  const file = preview.recall ? preview.recall.fileName : 'the task.json';
  switch (input.source) {
    case 'export-file':
      return `${input.name} from the export folder (${sizeText(input.size)})`;
    case 'library-file':
      return `${input.name} from this library (${sizeText(input.size)})`;
    case 'url':
      return `the address ${input.url} (the service fetches it)`;
    case 'inline':
      return `Base64 written in ${file} (${input.chars} characters)`;
    case 'needs-file':
      return `needs a file you pick (its value in ${file} ${input.why})`;
  }
}
