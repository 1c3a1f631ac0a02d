/**
 * Checks a create request (spec 2.1 - 2.4, field notes) before anything is accepted. Every
 * failure is a 400 whose message names the field, e.g. `input.duration must be ...`. The
 * fields of each task type come from the shared catalog; image contents are checked
 * afterwards (asynchronously) by image-input-check.ts.
 */
import {
  catalogEntry,
  HOSTED_SERVICE,
  type InputRules,
  inputProblems,
  isHttpUrl,
  jsonTypeOf,
  modelNameOf,
  SANDBOX_VENDOR,
  TASK_TYPES,
  type TaskTypeEntry,
  vendorOf,
} from '../shared/catalog/index.ts';
import { badRequest } from './error-body.ts';
import { decodeMediaBase64 } from './media/index.ts';

/** Vendors the sandbox answers to: the spec's and the real service's. */
const VENDORS: readonly string[] = [SANDBOX_VENDOR, HOSTED_SERVICE.vendor];

export interface ImageInputField {
  /** The input key, e.g. `target_image`. */
  name: string;
  value: string;
}

export interface ValidatedCreate {
  /** The model id as it was sent; the answers echo it. */
  model: string;
  taskType: string;
  entry: TaskTypeEntry;
  input: Record<string, unknown>;
  webhook: { endpoint: string; secret: string };
  serviceMode: string;
  /** Image inputs to check for content and size, in input order. */
  imageFields: ImageInputField[];
}

/** Parses the raw body text; throws a 400 naming the field at the first problem. */
export function parseCreateBody(bodyText: string): { body: unknown; request: ValidatedCreate } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch (err) {
    throw badRequest(`body: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return { body, request: validateCreate(body) };
}

export function validateCreate(body: unknown): ValidatedCreate {
  if (!isPlainObject(body)) throw badRequest(`body: must be a JSON object, got ${jsonTypeOf(body)}`);
  const model = requireString(body, 'model');
  const taskType = requireString(body, 'task_type');
  if (body.input === undefined || body.input === null) throw badRequest('input is required');
  if (!isPlainObject(body.input)) throw badRequest(`input must be an object, got ${jsonTypeOf(body.input)}`);
  const entry = catalogEntryOf(model, taskType);
  const { webhook, serviceMode } = validateConfig(body.config);
  const input = body.input;
  const imageFields = validateInput(input, entry.input);
  return { model, taskType, entry, input, webhook, serviceMode, imageFields };
}

/** The catalog entry a model id and task type name, or a 400 saying what is known. */
function catalogEntryOf(model: string, taskType: string): TaskTypeEntry {
  const vendor = vendorOf(model);
  if (!VENDORS.includes(vendor)) {
    throw badRequest(
      `model: unknown model '${model}' (a model id is <vendor>/<model>, with vendor ${VENDORS.join(' or ')})`,
    );
  }
  const name = modelNameOf(model);
  // earlier model names (the catalog's aliases) are still accepted, so older demo libraries can re-run their tasks
  const types = TASK_TYPES.filter((e) => e.modelName === name || e.modelAliases?.includes(name)).map(
    (e) => e.taskType,
  );
  if (types.length === 0) {
    throw badRequest(`model: unknown model '${model}' (known: ${knownModelNames().join(', ')})`);
  }
  const entry = catalogEntry(name, taskType);
  if (!entry) {
    throw badRequest(`task_type: '${taskType}' is not a task type of ${model} (known: ${types.join(', ')})`);
  }
  return entry;
}

function knownModelNames(): string[] {
  return [...new Set(TASK_TYPES.map((e) => e.modelName))];
}

function validateConfig(config: unknown): {
  webhook: { endpoint: string; secret: string };
  serviceMode: string;
} {
  const result = { webhook: { endpoint: '', secret: '' }, serviceMode: '' };
  if (config === undefined || config === null) return result;
  if (!isPlainObject(config)) throw badRequest(`config must be an object, got ${jsonTypeOf(config)}`);
  if (config.service_mode !== undefined) {
    if (typeof config.service_mode !== 'string') {
      throw badRequest(`config.service_mode must be a string, got ${jsonTypeOf(config.service_mode)}`);
    }
    result.serviceMode = config.service_mode;
  }
  const wh = config.webhook_config;
  if (wh === undefined || wh === null) return result;
  if (!isPlainObject(wh)) throw badRequest(`config.webhook_config must be an object, got ${jsonTypeOf(wh)}`);
  for (const key of ['endpoint', 'secret'] as const) {
    const value = wh[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      throw badRequest(`config.webhook_config.${key} must be a string, got ${jsonTypeOf(value)}`);
    }
    result.webhook[key] = value;
  }
  if (result.webhook.endpoint !== '' && !isHttpUrl(result.webhook.endpoint)) {
    throw badRequest('config.webhook_config.endpoint must be an http(s) URL or an empty string');
  }
  return result;
}

function validateInput(input: Record<string, unknown>, rules: InputRules): ImageInputField[] {
  const first = inputProblems(input, rules)[0];
  if (first) throw badRequest(first.message);
  const images: ImageInputField[] = [];
  for (const [name, rule] of Object.entries(rules.fields)) {
    const value = input[name];
    if (typeof value !== 'string' || value === '') continue;
    if (rule.media === 'image') images.push({ name, value });
    if (
      rule.media !== undefined &&
      rule.media !== 'image' &&
      !isHttpUrl(value) &&
      decodeMediaBase64(value) === null
    ) {
      throw badRequest(`input.${name} must be an http(s) URL or Base64 ${rule.media}`);
    }
  }
  return images;
}

function requireString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null || value === '') throw badRequest(`${key} is required`);
  if (typeof value !== 'string') throw badRequest(`${key} must be a string, got ${jsonTypeOf(value)}`);
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
