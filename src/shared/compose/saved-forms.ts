/**
 * The composer's forms as kept on disk between starts (issue 17, item 12): every tab's fields,
 * its media slots (what each holds, not its check), what it is made from, and its batch choices.
 * The window sends them as the user types (`compose.saveForms`); main writes them to a file in
 * the app's data folder and checks them with this schema when it reads them back, so a damaged
 * file is reported and set aside, never handed to the composer. A draft's local file paths are
 * only kept while the user had given the file to the app (main drops any other), and a webhook
 * secret never.
 */
import { z } from 'zod';

export const COMPOSE_TAB_NAMES = [
  'song',
  'faceSwap',
  'imageEdit',
  // issue 21: the picture tools (upscale, background, segment) for dropped pictures
  'pictures',
  'image',
  'video',
  'model3d',
  'fromResult',
  'other',
] as const;
/** The tabs built from the catalog's entries by what they make (issue 19): their form is an entry and its values. */
export const KIND_TAB_NAMES = ['image', 'video', 'model3d'] as const;
/** Tabs added after the first saved forms: a file without them reads them as empty. */
const LATER_TABS = [...KIND_TAB_NAMES, 'pictures'] as const;
export const SLOT_FIELD_NAMES = [
  'style_audio',
  'target_image',
  'swap_image',
  'image1',
  'image2',
  'image3',
  'source_audio',
  'source_image',
  // issue 19: the From a result tab's video, and the Image, Video and 3D tabs' pictures and video
  'source_video',
  'image_picture',
  'video_picture',
  'video_source',
  'model3d_picture',
] as const;
/** Slots and tabs added after the first saved forms: a file without them reads them as empty. */
const LATER_SLOTS = [
  'source_video',
  'image_picture',
  'video_picture',
  'video_source',
  'model3d_picture',
] as const;

/** The longest value a saved slot keeps (a pasted picture above it is not kept: its label and a note are). */
export const SAVED_SLOT_VALUE_MAX = 1_000_000;
/** The longest text a saved field keeps (well above every limit of the service). */
const TEXT_MAX = 200_000;

const text = z.string().max(TEXT_MAX);
const id = z.string().min(1).max(100);

export const SavedSlotSchema = z.strictObject({
  /** A local path, a URL or Base64; '' when the slot is empty (or its file could not be kept). */
  value: z.string().max(SAVED_SLOT_VALUE_MAX),
  label: z.string().max(2000),
  origin: z.enum(['file', 'url', 'library', 'data', 'result']).nullable(),
  /** A library result the slot names (origin `result`). */
  result: z
    .strictObject({
      taskId: id,
      index: z.number().int().min(0).max(100),
      mediaUrl: z.string().max(4000).nullable(),
      seconds: z.number().nonnegative().nullable(),
    })
    .nullable(),
  /** Why the slot is empty though it held something (its file was not given again after a restart). */
  note: z.string().max(2000).nullable(),
});
export type SavedSlot = z.infer<typeof SavedSlotSchema>;

const EMPTY_SAVED_SLOT = { value: '', label: '', origin: null, result: null, note: null } as const;

/** A field per tab; a later tab's may be missing (a file of an earlier version) and reads as `empty`. */
const perTab = <T extends z.ZodType>(schema: T, empty: z.input<T>) =>
  z.strictObject(
    Object.fromEntries(
      COMPOSE_TAB_NAMES.map((tab) => [
        tab,
        (LATER_TABS as readonly string[]).includes(tab) ? schema.default(empty as never) : schema,
      ]),
    ) as { [K in PlainTab]: T } & { [K in LaterTab]: z.ZodDefault<T> },
  );
type LaterTab = (typeof LATER_TABS)[number];
type PlainTab = Exclude<(typeof COMPOSE_TAB_NAMES)[number], LaterTab>;
type LaterSlot = (typeof LATER_SLOTS)[number];

/** A kind tab's form: the entry chosen and its values as JSON (media fields are in the tab's slots). */
const KindFormSchema = z.strictObject({ entryId: z.string().max(200), json: text });

export const SavedFormsSchema = z.strictObject({
  version: z.literal(1),
  tab: z.enum(COMPOSE_TAB_NAMES),
  song: z.strictObject({
    stylePrompt: text,
    negativePrompt: text,
    lyrics: text,
    duration: z.number().finite(),
  }),
  faceSwap: z.strictObject({
    mode: z.enum(['one', 'several']),
    swapFacesIndex: text,
    targetFacesIndex: text,
  }),
  imageEdit: z.strictObject({
    prompt: text,
    negativePrompt: text,
    seed: text,
    steps: text,
    flowShift: text,
  }),
  fromResult: z.strictObject({
    operation: z.string().min(1).max(100),
    /** The Picture tools tab's tool (an operation on a picture); absent from an earlier version's file. */
    tool: z.string().min(1).max(100).optional(),
    values: z.record(
      z.string().max(100),
      z.record(z.string().max(100), z.union([z.string().max(TEXT_MAX), z.boolean()])),
    ),
  }),
  other: z.strictObject({
    model: text,
    taskType: text,
    modelId: text,
    json: text,
    view: z.enum(['form', 'json']).optional(),
  }),
  /** The Image, Video and 3D tabs (absent from a file of an earlier version: each starts afresh). */
  kinds: z
    .strictObject(
      Object.fromEntries(KIND_TAB_NAMES.map((tab) => [tab, KindFormSchema])) as Record<
        (typeof KIND_TAB_NAMES)[number],
        typeof KindFormSchema
      >,
    )
    .optional(),
  /**
   * A webhook secret is never kept (issue 17, item 9): main writes and answers `webhookSecret`
   * empty, with `webhookSecretNotKept` when one was typed for an endpoint, so the form asks for
   * it again.
   */
  common: perTab(
    z.strictObject({
      title: text,
      webhookEndpoint: text,
      webhookSecret: text,
      webhookSecretNotKept: z.boolean().optional(),
    }),
    { title: '', webhookEndpoint: '', webhookSecret: '' },
  ),
  slots: z.strictObject(
    Object.fromEntries(
      SLOT_FIELD_NAMES.map((field) => [
        field,
        (LATER_SLOTS as readonly string[]).includes(field)
          ? SavedSlotSchema.default(EMPTY_SAVED_SLOT)
          : SavedSlotSchema,
      ]),
    ) as { [K in Exclude<(typeof SLOT_FIELD_NAMES)[number], LaterSlot>]: typeof SavedSlotSchema } & {
      [K in LaterSlot]: z.ZodDefault<typeof SavedSlotSchema>;
    },
  ),
  parent: perTab(
    z
      .strictObject({ taskId: id, output: z.number().int().min(0).max(100).nullable(), title: text })
      .nullable(),
    null,
  ),
  batch: z.strictObject({
    variations: perTab(z.number().int().min(1).max(100), 1),
    songSplit: z.boolean(),
    extra: z.strictObject({
      target_image: z.array(SavedSlotSchema).max(100),
      source_image: z.array(SavedSlotSchema).max(100),
    }),
    /** Per tab, "One task per line" of its prompt; absent from an earlier version's file (all off). */
    promptLines: z.partialRecord(z.enum(COMPOSE_TAB_NAMES), z.boolean()).optional(),
  }),
});
export type SavedForms = z.infer<typeof SavedFormsSchema>;
/** Saved forms as a file may hold them: an earlier version's lack the tabs and slots added since. */
export type SavedFormsInput = z.input<typeof SavedFormsSchema>;
type SavedCommon = SavedForms['common'][(typeof COMPOSE_TAB_NAMES)[number]];

/** The forms with every tab's webhook secret left out, noting where one was typed for an endpoint. */
export function withoutWebhookSecrets(forms: SavedForms): SavedForms {
  const common = { ...forms.common };
  for (const tab of COMPOSE_TAB_NAMES) {
    const { webhookSecret, webhookSecretNotKept, ...rest } = forms.common[tab];
    const notKept =
      (webhookSecret !== '' || webhookSecretNotKept === true) && rest.webhookEndpoint.trim() !== '';
    const kept: SavedCommon = { ...rest, webhookSecret: '' };
    common[tab] = notKept ? { ...kept, webhookSecretNotKept: true } : kept;
  }
  return { ...forms, common };
}

/** What `compose.loadForms` answers: the forms kept last time, and what went wrong reading them. */
export interface SavedFormsView {
  /** null when none were kept (the first start) or they could not be read. */
  forms: SavedForms | null;
  /** The file could not be read: said in plain words, with where the damaged file was kept. */
  problem: string | null;
}
