/**
 * zod schemas of the service's wire format (spec sections 2, 4, 7). These describe what
 * travels over HTTP, as loosely as the spec allows: every object passes unknown keys through
 * so nothing the service says is lost.
 */
import { z } from 'zod';

// ---------- create request (2.1 - 2.4) ----------

export const WebhookConfigSchema = z.looseObject({
  endpoint: z.string().optional(),
  secret: z.string().optional(),
});
export type WebhookConfig = z.infer<typeof WebhookConfigSchema>;

export const TaskConfigSchema = z.looseObject({
  service_mode: z.string().optional(),
  webhook_config: WebhookConfigSchema.optional(),
});

export const Txt2AudioInputSchema = z.strictObject({
  style_prompt: z.string().optional(),
  negative_prompt: z.string().optional(),
  lyrics: z.string().optional(),
  duration: z.number().optional(),
  style_audio: z.string().optional(),
});
export type Txt2AudioInput = z.infer<typeof Txt2AudioInputSchema>;

export const ImageEditInputSchema = z.strictObject({
  image1: z.string(),
  image2: z.string().optional(),
  image3: z.string().optional(),
  prompt: z.string(),
  negative_prompt: z.string().optional(),
  seed: z.number().int().optional(),
  steps: z.number().int().optional(),
  flow_shift: z.number().optional(),
});
export type ImageEditInput = z.infer<typeof ImageEditInputSchema>;

export const FaceSwapInputSchema = z.strictObject({
  target_image: z.string(),
  swap_image: z.string(),
});
export type FaceSwapInput = z.infer<typeof FaceSwapInputSchema>;

const requestBase = {
  model: z.string().min(1),
  config: TaskConfigSchema.optional(),
};

export const Txt2AudioRequestSchema = z.object({
  ...requestBase,
  task_type: z.literal('txt2audio'),
  input: Txt2AudioInputSchema,
});
export const ImageEditRequestSchema = z.object({
  ...requestBase,
  task_type: z.literal('image-edit'),
  input: ImageEditInputSchema,
});
export const FaceSwapRequestSchema = z.object({
  ...requestBase,
  task_type: z.literal('face-swap'),
  input: FaceSwapInputSchema,
});
/** Any other task of the catalog: model, task type and an input object. */
export const GenericRequestSchema = z.object({
  ...requestBase,
  task_type: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});

/** A create request: the three specified task types checked field by field, the rest generically. */
export const CreateTaskRequestSchema = z.union([
  Txt2AudioRequestSchema,
  ImageEditRequestSchema,
  FaceSwapRequestSchema,
  GenericRequestSchema.refine((r) => !['txt2audio', 'image-edit', 'face-swap'].includes(r.task_type), {
    message: 'input does not match the fields of its task type',
  }),
]);
export type CreateTaskRequest = z.infer<typeof GenericRequestSchema> & {
  config?: z.infer<typeof TaskConfigSchema>;
};

// ---------- records (2.5 - 2.8) ----------

/** The `error` object of a task record (2.5) and of our error responses (7). */
export const ErrorObjectSchema = z.looseObject({
  code: z.number().optional(),
  raw_message: z.string().optional(),
  message: z.string().optional(),
  detail: z.unknown().optional(),
});
export type ErrorObject = z.infer<typeof ErrorObjectSchema>;

export const UsageSchema = z.looseObject({
  type: z.string().optional(),
  frozen: z.number().optional(),
  consume: z.number().optional(),
});

export const MetaSchema = z.looseObject({
  created_at: z.string().optional(),
  started_at: z.string().optional(),
  ended_at: z.string().optional(),
  usage: UsageSchema.optional(),
  is_using_private_pool: z.boolean().optional(),
});

/** `data` of form A (and of form B, which carries a subset of it). */
export const TaskDataSchema = z.looseObject({
  task_id: z.string().min(1),
  model: z.string().optional(),
  task_type: z.string().optional(),
  status: z.string(),
  config: TaskConfigSchema.nullish(),
  input: z.union([z.record(z.string(), z.unknown()), z.string()]).nullish(),
  output: z.record(z.string(), z.unknown()).nullish(),
  meta: MetaSchema.nullish(),
  detail: z.unknown().optional(),
  logs: z.array(z.unknown()).nullish(),
  error: ErrorObjectSchema.nullish(),
});
export type TaskData = z.infer<typeof TaskDataSchema>;

/** Form A: `{timestamp?, code?, message?, data}` (audio and face-swap create, fetch). */
export const FormASchema = z.looseObject({
  timestamp: z.number().optional(),
  code: z.number().optional(),
  message: z.string().optional(),
  data: TaskDataSchema,
});

/** Form B: the video fetch, `{code, message, data: {task_id, status, output: {video_url}}}`. */
export const FormBSchema = z.looseObject({
  code: z.number(),
  message: z.string(),
  data: z.looseObject({
    task_id: z.string().min(1),
    status: z.string(),
    output: z.looseObject({ video_url: z.string() }).nullish(),
  }),
});

/** The image-edit create answer of 2.7: `{task_id, status, created_at}`, no envelope. */
export const ImageEditCreateSchema = z.looseObject({
  task_id: z.string().min(1),
  status: z.string(),
  created_at: z.string().optional(),
});

const ArgumentSchema = z.looseObject({ name: z.string(), value: z.string() });
const InputRefSchema = z.looseObject({
  inputType: z.string().optional(),
  name: z.string().optional(),
  url: z.string().optional(),
  blobStorage: z.unknown().optional(),
  token: z.unknown().optional(),
});
export const TaskInfoSchema = z.looseObject({
  arguments: z.array(ArgumentSchema).nullish(),
  inputs: z.array(InputRefSchema).nullish(),
  type: z.string().optional(),
});
const ResourceSchema = z.looseObject({
  resource: z.string().optional(),
  resourceWithoutWatermark: z.string().optional(),
  height: z.number().optional(),
  width: z.number().optional(),
  duration: z.number().optional(),
});
export const WorkSchema = z.looseObject({
  workId: z.number().optional(),
  workItemId: z.number().optional(),
  taskId: z.number().optional(),
  userId: z.number().optional(),
  type: z.string().optional(),
  status: z.number().optional(),
  contentType: z.string().optional(),
  resource: ResourceSchema.nullish(),
  cover: ResourceSchema.nullish(),
  starNum: z.number().optional(),
  reportNum: z.number().optional(),
  createTime: z.number().optional(),
  taskInfo: TaskInfoSchema.nullish(),
  selfAttitude: z.string().optional(),
  selfComment: z
    .looseObject({ tags: z.array(z.unknown()).optional(), content: z.string().optional() })
    .nullish(),
  favored: z.boolean().optional(),
  publishStatus: z.string().optional(),
  deleted: z.boolean().optional(),
});
export type Work = z.infer<typeof WorkSchema>;

/** Form C: the detailed record with `task` and `works` (2.8). */
export const FormCSchema = z.looseObject({
  code: z.number(),
  message: z.string(),
  data: z.looseObject({
    task_id: z.string().min(1),
    input: z.string().nullish(),
    status: z.string(),
    metadata: z
      .looseObject({
        created_at: z.string().optional(),
        started_at: z.string().optional(),
        ended_at: z.string().optional(),
        quota_frozen: z.number().optional(),
        quota_usage: z.number().optional(),
      })
      .nullish(),
    task: z.looseObject({
      id: z.number().optional(),
      userId: z.number().optional(),
      type: z.string().optional(),
      status: z.number().optional(),
      taskInfo: TaskInfoSchema.nullish(),
      favored: z.boolean().optional(),
      deleted: z.boolean().optional(),
      createTime: z.number().optional(),
      updateTime: z.number().optional(),
    }),
    works: z.array(WorkSchema),
  }),
});

/**
 * Error responses (7): the body is "not shown". We answer, and expect, the same envelope with
 * `data: null` and an `error` object; the client tolerates any other body.
 */
export const ErrorResponseSchema = z.looseObject({
  code: z.number().optional(),
  message: z.string().optional(),
  data: z.unknown().optional(),
  error: ErrorObjectSchema.optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Webhook delivery body (field notes): `{timestamp, data}` with `data` as a fetch returns it. */
export const WebhookPayloadSchema = z.looseObject({
  timestamp: z.number(),
  data: TaskDataSchema,
});
