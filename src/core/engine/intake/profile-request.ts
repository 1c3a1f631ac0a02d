/**
 * A draft's input as the profile's service takes it, decided once when the task is queued and
 * stored with the task, so what the library shows is what was sent:
 * - the model id (`<vendor>/<model name>`, or the user's override for the catalog entry);
 * - the song's negative prompt under the name the service expects (the spec says
 *   `negative_prompt`; the real service's records and clients use `negative_style_prompt`);
 * - empty song lyrics as `[inst]`, as the real service's public examples send an instrumental.
 */
import { resolveModelId, type ServiceProfile, type TaskTypeEntry } from '../../../shared/index.ts';

const NEGATIVE_PROMPT_FIELDS = ['negative_prompt', 'negative_style_prompt'] as const;
const INSTRUMENTAL_LYRICS = '[inst]';

export interface ProfiledRequest {
  model: string;
  input: Record<string, unknown>;
}

export function requestForProfile(
  draft: { model: string; taskType: string; input: Record<string, unknown> },
  profile: ServiceProfile,
  entry: TaskTypeEntry | undefined,
): ProfiledRequest {
  const model = resolveModelId(draft.model, draft.taskType, profile);
  const input = { ...draft.input };
  const fields = entry?.input.fields ?? {};
  if (NEGATIVE_PROMPT_FIELDS.every((name) => name in fields)) {
    renameNegativePrompt(input, profile.negativePromptField);
  }
  if (entry?.id === 'ace-step/txt2audio') {
    const lyrics = input.lyrics;
    if (lyrics === undefined || (typeof lyrics === 'string' && lyrics.trim() === '')) {
      input.lyrics = INSTRUMENTAL_LYRICS;
    }
  }
  return { model, input };
}

/** Moves whichever negative prompt the input has under `wanted`; an empty one is dropped. */
function renameNegativePrompt(input: Record<string, unknown>, wanted: ServiceProfile['negativePromptField']) {
  const given = NEGATIVE_PROMPT_FIELDS.map((name) => input[name]).find(
    (v) => typeof v === 'string' && v.trim() !== '',
  );
  for (const name of NEGATIVE_PROMPT_FIELDS) delete input[name];
  if (given !== undefined) input[wanted] = given;
}
