/**
 * zod schemas of the service's wire format (spec sections 2, 4, 7). These describe what
 * travels over HTTP, as loosely as the spec allows: every object passes unknown keys through,
 * so a field the app does not know never costs a record.
 */
import { z } from 'zod';

// ---------- create request (2.1 - 2.4) ----------

/**
 * A create request as the app sends it: the model, the task type, its input and, when there is
 * one, the webhook. The input is checked against the catalog before this is built.
 */
export interface CreateTaskRequest {
  model: string;
  task_type: string;
  input: Record<string, unknown>;
  config?: {
    service_mode?: string;
    webhook_config?: { endpoint?: string; secret?: string };
  };
}

// ---------- records (2.5 - 2.8) ----------

/**
 * A descriptive field of a record: it reads as absent (undefined) when the service leaves it
 * out, sends `null`, or sends another type than expected. The real service does all three
 * (`"ended_at": null`, `"logs": null`, `"meta": {}`), and one odd field must never cost the
 * whole record. Fields the app cannot do without (`task_id`, `status`, `output`) stay strict.
 */
export function tolerantField<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** The `error` object of a task record (2.5) and of error answers (7); any part may be null. */
export const ErrorObjectSchema = z.looseObject({
  code: tolerantField(z.number()),
  raw_message: tolerantField(z.string()),
  message: tolerantField(z.string()),
  detail: z.unknown().optional(),
});
export type ErrorObject = z.infer<typeof ErrorObjectSchema>;

export const UsageSchema = z.looseObject({
  type: tolerantField(z.string()),
  frozen: tolerantField(z.number()),
  consume: tolerantField(z.number()),
});

export const MetaSchema = z.looseObject({
  created_at: tolerantField(z.string()),
  started_at: tolerantField(z.string()),
  ended_at: tolerantField(z.string()),
  usage: tolerantField(UsageSchema),
  is_using_private_pool: tolerantField(z.boolean()),
});

/** `data` of form A (and of form B, which carries a subset of it). */
export const TaskDataSchema = z.looseObject({
  task_id: z.string().min(1),
  model: tolerantField(z.string()),
  task_type: tolerantField(z.string()),
  status: z.string(),
  input: tolerantField(z.union([z.record(z.string(), z.unknown()), z.string()])),
  output: z.record(z.string(), z.unknown()).nullish(),
  meta: tolerantField(MetaSchema),
  detail: z.unknown().optional(),
  logs: tolerantField(z.array(z.unknown())),
  error: tolerantField(ErrorObjectSchema),
});
export type TaskData = z.infer<typeof TaskDataSchema>;

/** Form A: `{timestamp?, code?, message?, data}` (audio and face-swap create, fetch). */
export const FormASchema = z.looseObject({
  timestamp: tolerantField(z.number()),
  code: tolerantField(z.number()),
  message: tolerantField(z.string()),
  data: TaskDataSchema,
});

/** Form B: the video fetch, `{code, message, data: {task_id, status, output: {video_url}}}`. */
export const FormBSchema = z.looseObject({
  code: tolerantField(z.number()),
  message: tolerantField(z.string()),
  data: z.looseObject({
    task_id: z.string().min(1),
    status: z.string(),
    output: z.looseObject({ video_url: tolerantField(z.string()) }).nullish(),
  }),
});

/** The image-edit create answer of 2.7: `{task_id, status, created_at}`, no envelope. */
export const ImageEditCreateSchema = z.looseObject({
  task_id: z.string().min(1),
  status: z.string(),
  created_at: tolerantField(z.string()),
});

const ArgumentSchema = z.looseObject({ name: tolerantField(z.string()), value: tolerantField(z.string()) });
const InputRefSchema = z.looseObject({
  inputType: tolerantField(z.string()),
  name: tolerantField(z.string()),
  url: tolerantField(z.string()),
  blobStorage: z.unknown().optional(),
  token: z.unknown().optional(),
});
export const TaskInfoSchema = z.looseObject({
  arguments: tolerantField(z.array(tolerantField(ArgumentSchema))),
  inputs: tolerantField(z.array(tolerantField(InputRefSchema))),
  type: tolerantField(z.string()),
});
const ResourceSchema = z.looseObject({
  resource: tolerantField(z.string()),
  resourceWithoutWatermark: tolerantField(z.string()),
  height: tolerantField(z.number()),
  width: tolerantField(z.number()),
  duration: tolerantField(z.number()),
});
export const WorkSchema = z.looseObject({
  workId: tolerantField(z.number()),
  workItemId: tolerantField(z.number()),
  taskId: tolerantField(z.number()),
  userId: tolerantField(z.number()),
  type: tolerantField(z.string()),
  status: tolerantField(z.number()),
  contentType: tolerantField(z.string()),
  resource: tolerantField(ResourceSchema),
  cover: tolerantField(ResourceSchema),
  starNum: tolerantField(z.number()),
  reportNum: tolerantField(z.number()),
  createTime: tolerantField(z.number()),
  taskInfo: tolerantField(TaskInfoSchema),
  selfAttitude: tolerantField(z.string()),
  selfComment: tolerantField(
    z.looseObject({ tags: tolerantField(z.array(z.unknown())), content: tolerantField(z.string()) }),
  ),
  favored: tolerantField(z.boolean()),
  publishStatus: tolerantField(z.string()),
  deleted: tolerantField(z.boolean()),
});
export type Work = z.infer<typeof WorkSchema>;

/** Form C: the detailed record with `task` and `works` (2.8). A null or unreadable work is skipped. */
export const FormCSchema = z.looseObject({
  code: tolerantField(z.number()),
  message: tolerantField(z.string()),
  data: z.looseObject({
    task_id: z.string().min(1),
    input: tolerantField(z.string()),
    status: z.string(),
    metadata: tolerantField(
      z.looseObject({
        created_at: tolerantField(z.string()),
        started_at: tolerantField(z.string()),
        ended_at: tolerantField(z.string()),
        quota_frozen: tolerantField(z.number()),
        quota_usage: tolerantField(z.number()),
      }),
    ),
    task: tolerantField(
      z.looseObject({
        id: tolerantField(z.number()),
        userId: tolerantField(z.number()),
        type: tolerantField(z.string()),
        status: tolerantField(z.number()),
        taskInfo: tolerantField(TaskInfoSchema),
        favored: tolerantField(z.boolean()),
        deleted: tolerantField(z.boolean()),
        createTime: tolerantField(z.number()),
        updateTime: tolerantField(z.number()),
      }),
    ),
    works: z.array(tolerantField(WorkSchema)).nullish(),
  }),
});

/**
 * Error answers (7): the body is "not shown" in the spec. The real service answers
 * `{code, message}` or `{code, data: null, message}`; our sandbox adds an `error` object
 * `{code, raw_message, message, detail}`. Every part is optional and may be null.
 */
export const ErrorResponseSchema = z.looseObject({
  code: tolerantField(z.number()),
  message: tolerantField(z.string()),
  data: z.unknown().optional(),
  error: tolerantField(ErrorObjectSchema),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Webhook delivery body (field notes): `{timestamp, data}` with `data` as a fetch returns it. */
export const WebhookPayloadSchema = z.looseObject({
  timestamp: tolerantField(z.number()),
  data: TaskDataSchema,
});
