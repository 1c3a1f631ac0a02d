/**
 * What a catalog entry is (one model and task type): its words, what it makes and yields, its
 * price, its input rules and example. The entries themselves are task-types.ts's and the files
 * it gathers (song-entries.ts, entries/); entry-parts.ts says how they are written.
 */
import { MEDIA_KINDS, type MediaKind } from '../media/media-kinds.ts';
import type { InputRules } from './input-fields.ts';
import type { PriceRule } from './price-rules.ts';

/** What a task yields: a kind of the media table (media/media-kinds.ts). */
export const OUTPUT_KINDS = MEDIA_KINDS;
export type OutputKind = MediaKind;

/** One field of a task's `output` that holds a result, as the entry's model names it. */
export interface OutputField {
  field: string;
  kind: OutputKind;
}

export const TASK_FAMILIES = ['song', 'face-swap', 'image-edit', 'other'] as const;
/** The task families the composer has a tab for; everything else is `other`. */
export type TaskFamily = (typeof TASK_FAMILIES)[number];

export interface TaskTypeEntry {
  /**
   * The entry's stable id, `<modelName>/<taskType>` (vendor-free): stored with each task, and
   * the key of a model-id override.
   */
  id: string;
  /** The model's name without its vendor, e.g. `ace-step`; the id sent is `<vendor>/<modelName>`. */
  modelName: string;
  /** Other names of the model that find this entry (an earlier version's, another source's); never sent. */
  modelAliases?: readonly string[];
  /** The service's task type; with the model name it names the entry (repeated across models). */
  taskType: string;
  family: TaskFamily;
  /**
   * What the task makes, as the library's Type filter groups tasks: a song extend is listed under
   * songs and a multi-face swap under face swaps, though both are `other` to the composer.
   */
  makes: TaskFamily;
  /** Human label for menus. */
  label: string;
  /** One line under the entry's choice: what it does, in plain words. */
  description?: string;
  /** Its words as an operation on a result (the From a result tab and the keep-going actions). */
  operation?: OperationWords;
  /**
   * The same input gives the same result (an upscale, a background removal): the composer offers
   * no Variations for it, since each would be billed for the same picture.
   */
  deterministic?: true;
  /** Its pictures have transparent parts (a background removal): shown on a checkerboard. */
  transparentOutput?: true;
  /** What a completed task yields; its first output is in `output.<kind>_url` (`image_url`). */
  outputKind: OutputKind;
  /** The output field listing every output when there may be several (`image_urls`), if any. */
  outputList?: string;
  /**
   * The output fields the entry's model fills, in order, when they are not `<kind>_url` (plus
   * `outputList`): trellis names its three `model_file` (a GLB), `combined_video` (an MP4) and
   * `no_background_image` (a PNG). The sandbox answers in them.
   */
  outputFields?: readonly OutputField[];
  /** The CLI's name of the entry: `media-task create <shortName>` (its id always works too). */
  shortName?: string;
  /**
   * The family the service's task history and running-task counts name the model by (`llm` for
   * ace-step, `image_toolkit`, `flux`…: catalog-families.md); absent, history is read across all.
   */
  historyFamily?: string;
  /** Expected service-side duration in seconds before any history exists (pending + processing). */
  expectedSeconds: number;
  /** The published price (price-rules.ts); null when none is published. */
  price: PriceRule | null;
  /** Only the built-in sandbox serves it (a model that exercises another answer form). */
  sandboxOnly: boolean;
  input: InputRules;
  /** The input number that scales the task's duration (for the polling schedule), if any. */
  sizeParameter: string | null;
  /** A starting input for the JSON editor of the Other tab. */
  example: Record<string, unknown>;
}

/**
 * An entry's words as an operation on a result of its media field's kind: an entry with one
 * required media field and no tab of its own is one (result-operations.ts); these words are
 * made up from the entry's when it has none.
 */
export interface OperationWords {
  /** On its button and in the tab: "Extend", "Remove background". */
  label: string;
  /** What the source slot is for: "The song to extend". */
  source: string;
  /** Put after the source's title in the new task's title: `Ocean lullaby (extended)`. */
  titleWord: string;
  /** The keep-going button's words when they are not `label` ("Edit" for "Song edit"). */
  button?: string;
}
