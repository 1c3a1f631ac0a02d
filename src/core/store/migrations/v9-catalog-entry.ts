/**
 * v9: each task records its catalog entry (`entry_id`, `<model name>/<task type>`): the catalog
 * is keyed by model and task type, as the service repeats task types across models. Tasks queued
 * before were looked up by task type alone, and every task type had one entry then, so a known
 * task type names its entry, whatever model id (an override) it was sent with. `txt2img` is the
 * exception: the sandbox's image-gen held it, but a create of `Qubico/flux1-schnell` passed as
 * one: by model name. Anything else stays NULL (a pair the catalog did not know).
 * NEVER edit: its SQL is hashed.
 */
export const V9_CATALOG_ENTRY = `
ALTER TABLE tasks ADD COLUMN entry_id TEXT;
UPDATE tasks SET entry_id = CASE
  WHEN task_type IN ('txt2audio', 'audio2audio', 'edit', 'extend') THEN 'ace-step/' || task_type
  WHEN task_type = 'image-edit' THEN 'qwen-image/image-edit'
  WHEN task_type IN ('face-swap', 'multi-face-swap', 'background-remove', 'segment', 'upscale')
    THEN 'image-toolkit/' || task_type
  WHEN task_type = 'txt2video' THEN 'video-gen/txt2video'
  WHEN task_type = 'txt2img' AND substr(model, instr(model, '/') + 1) IN ('image-gen', 'flux1-schnell')
    THEN substr(model, instr(model, '/') + 1) || '/txt2img'
  ELSE NULL
END;
`;
