/**
 * A draft: what a user (the composer, the command line, an imported task file) asks to queue.
 * The zod schema is checked where a draft arrives; the engine takes the inferred type.
 */
import { z } from 'zod';
import { draftInputSizeProblem } from '../catalog/draft-input-size.ts';
import { BATCH_MAX_DRAFTS } from './task-lineage.ts';

const id = z.string().min(1).max(100);
const text = (max: number) => z.string().max(max);

export const TaskDraftSchema = z
  .strictObject({
    model: text(200).min(1),
    taskType: text(100).min(1),
    /**
     * Input fields as the service takes them; media fields may hold a local file path instead, or
     * a previous result as `{ $output: { taskId, index } }` (task-lineage.ts).
     */
    input: z.record(z.string().max(100), z.unknown()),
    /**
     * `sameSecretAs`: a re-run keeps the secret of the task it names (the page never reads a
     * secret back, webhook-config.ts), for that task's own endpoint only, when `secret` is empty.
     */
    webhook: z
      .strictObject({ endpoint: text(2000), secret: text(500), sameSecretAs: id.optional() })
      .nullish(),
    title: text(200).optional(),
    /**
     * The task this one is made from, and which of its outputs it uses (null: its inputs were
     * reused, as by a re-run). Taken from the first `{ $output }` of the input when not given.
     */
    parentId: id.nullish(),
    parentOutput: z.number().int().min(0).max(100).nullish(),
    /** The user agreed to queue a task whose price is not published, under a budget. */
    acceptUnknownPrice: z.boolean().optional(),
  })
  .superRefine((draft, ctx) => {
    // the input's JSON text is capped (media fields not counted), before anything else reads it
    const problem = draftInputSizeProblem(draft.input, draft);
    if (problem) ctx.addIssue({ code: 'custom', path: ['input'], message: problem });
  });
export type TaskDraft = z.infer<typeof TaskDraftSchema>;

export const TaskBatchSchema = z.strictObject({
  drafts: z.array(TaskDraftSchema).min(1).max(BATCH_MAX_DRAFTS),
  /** The user agreed to queue the batch though some of its prices are not published. */
  acceptUnknownPrice: z.boolean().optional(),
});
export type TaskBatch = z.infer<typeof TaskBatchSchema>;

/** The draft that recreates a task, every field filled (a re-run opens the composer with one). */
export type DraftView = Required<Pick<TaskDraft, 'model' | 'taskType' | 'input' | 'title'>> & {
  webhook: NonNullable<TaskDraft['webhook']> | null;
  /**
   * By input field, the name of the file the user gave (`party.jpg`) for a file input whose value
   * is the library's copy (named by its content hash): what the composer's slot shows.
   */
  fileNames?: Record<string, string>;
};
