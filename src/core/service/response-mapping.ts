/**
 * An HTTP answer of the service as a normalised task or a typed error. Error bodies come as
 * `{code, message}` or `{code, data: null, message}` from the real service and with an extra
 * `error: {code, raw_message, message, detail}` from our sandbox; any other body is tolerated
 * and quoted (made safe, at most 200 characters). A 2xx answer whose body carries a `code` of
 * 400 or more and no task is a refusal, read as if that code had been the HTTP status. Every
 * string of an answer passes service-strings.ts (control sequences and the key out) before it
 * leaves this module; an upload's address is checked as sent instead, and refused if unsafe.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  ErrorResponseSchema,
  normaliseTaskResponse,
  type RemoteTask,
  UploadAnswerSchema,
  uploadUrlProblem,
} from '../../shared/service/index.ts';
import { parseRetryAfter } from './retry-policy.ts';
import type { SecretScrubber } from './secret-scrubber.ts';
import {
  BadRequestError,
  OPERATION_WORDS,
  PlanRefusedError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  type ServiceError,
  type ServiceOperation,
  UnauthorizedError,
} from './service-errors.ts';
import { safeServiceText, safeServiceValue } from './service-strings.ts';

export const EXCERPT_MAX_CHARS = 200;

export interface ResponseContext {
  operation: ServiceOperation;
  scrubber: SecretScrubber;
  nowMs: number;
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** At most 200 characters of a body, made safe first (control sequences and the key out), whitespace collapsed. */
export function excerptOf(text: string, scrubber: SecretScrubber): string {
  const clean = safeServiceText(text, scrubber).replace(/\s+/g, ' ').trim();
  return clean.length <= EXCERPT_MAX_CHARS ? clean : `${clean.slice(0, EXCERPT_MAX_CHARS - 1)}…`;
}

interface ServiceSaid {
  message: string | null;
  code: number | null;
}

/** The service's words in a parsed error body: error.message, then message, then error.raw_message. */
function saidInBody(parsed: unknown, text: string, scrubber: SecretScrubber): ServiceSaid {
  const body = ErrorResponseSchema.safeParse(parsed);
  if (!body.success) return { message: excerptOf(text, scrubber) || null, code: null };
  const nested = body.data.error;
  const candidates = [nested?.message, body.data.message, nested?.raw_message];
  const message = candidates.find((m): m is string => typeof m === 'string' && m.trim() !== '');
  const code = typeof nested?.code === 'number' ? nested.code : (body.data.code ?? null);
  return {
    message: message ? safeServiceText(message, scrubber).slice(0, 1000) : excerptOf(text, scrubber) || null,
    code,
  };
}

/** The service's own words in an error body: error.message, then message, then a text excerpt. */
export function serviceMessageOf(text: string, scrubber: SecretScrubber): ServiceSaid {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const excerpt = excerptOf(text, scrubber);
    return { message: excerpt || null, code: null };
  }
  return saidInBody(parsed, text, scrubber);
}

function withServiceWords(sentence: string, said: string | null): string {
  return said ? `${sentence}: ${said}` : `${sentence}.`;
}

function actionOf(operation: ServiceOperation): string {
  return OPERATION_WORDS[operation].action;
}

/** Where a refusal came from: an HTTP status, or the `code` of a 2xx answer. */
interface RefusalSource {
  /** The status the refusal stands for (the HTTP status, or the code in the body). */
  code: number;
  /** The HTTP status of the answer. */
  httpStatus: number;
  inBody: boolean;
  /** The service's own code when it gave one (for a body refusal: the body's `code`). */
  serviceCode: number | null;
}

/** `HTTP 403`, or `code 403 in an HTTP 200 answer`. */
function whereOf(source: RefusalSource): string {
  return source.inBody ? `code ${source.code} in an HTTP ${source.httpStatus} answer` : `HTTP ${source.code}`;
}

/**
 * The typed error a refusal stands for: 401 the key, 403 the plan, 429 the rate, other 4xx a bad
 * request. An HTTP 5xx is a server failure (the request may have been processed); a 5xx given
 * as the code of a 2xx answer with no task is a refusal (nothing was created). Null below 400.
 */
function refusalOf(
  source: RefusalSource,
  said: string | null,
  retryAfterMs: number | null,
  operation: ServiceOperation,
): ServiceError | null {
  const { code } = source;
  const base = { operation, status: source.httpStatus };
  const where = whereOf(source);
  if (code === 401) {
    return new UnauthorizedError(
      `The service refused the API key (${where}). Check the key in Settings.${said ? ` Service said: ${said}` : ''}`,
      { ...base, serviceMessage: said },
    );
  }
  if (code === 403) {
    return new PlanRefusedError(
      withServiceWords(`Your plan at the service does not allow this (${where})`, said),
      {
        ...base,
        serviceMessage: said,
      },
    );
  }
  if (code === 429) {
    const wait = retryAfterMs === null ? '' : ` Try again in ${Math.ceil(retryAfterMs / 1000)} s.`;
    const words = said ? ` Service said: ${said}` : '';
    return new RateLimitedError(`The service is limiting requests (${where}).${wait}${words}`, {
      ...base,
      retryAfterMs,
      serviceMessage: said,
    });
  }
  if (code >= 500 && code <= 599 && !source.inBody) {
    return new ServerError(
      withServiceWords(`The service failed to ${actionOf(operation)} (${where})`, said),
      {
        ...base,
        retryAfterMs,
        serviceMessage: said,
      },
    );
  }
  if (code >= 400) {
    const aboutTask = operation === 'create' || operation === 'get';
    const what =
      code === 404 && aboutTask ? 'The service does not know this task' : 'The service rejected the request';
    return new BadRequestError(withServiceWords(`${what} (${where})`, said), {
      ...base,
      serviceMessage: said,
      serviceCode: source.serviceCode,
      inBody: source.inBody,
    });
  }
  return null;
}

/** The typed error of a non-2xx answer. */
export function errorFromStatus(answer: HttpAnswer, context: ResponseContext): ServiceError {
  const { status } = answer;
  const said = serviceMessageOf(answer.body.toString('utf8'), context.scrubber);
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], context.nowMs);
  const source = { code: status, httpStatus: status, inBody: false, serviceCode: said.code };
  const refusal = refusalOf(source, said.message, retryAfterMs, context.operation);
  if (refusal) return refusal;
  return new ProtocolError(`The service answered with an unexpected HTTP status ${status}.`, {
    operation: context.operation,
    status,
    excerpt: excerptOf(answer.body.toString('utf8'), context.scrubber),
    reason: `unexpected HTTP status ${status}`,
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isTaskId(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Whether a parsed body holds a task: `data.task_id` (forms A, B, C) or a top-level `task_id` (2.7). */
export function carriesTask(payload: unknown): boolean {
  if (!isObject(payload)) return false;
  return isTaskId(payload.task_id) || (isObject(payload.data) && isTaskId(payload.data.task_id));
}

/**
 * The refusal a 2xx body stands for: a numeric `code` of 400 or more and no task in it (e.g.
 * `{"code":403,"message":"Insufficient plan level"}` answered with HTTP 200). Null otherwise,
 * including when a task is there: then the task is what the service said.
 */
export function bodyRefusalOf(
  payload: unknown,
  answer: HttpAnswer,
  context: ResponseContext,
): ServiceError | null {
  if (!isObject(payload) || typeof payload.code !== 'number' || payload.code < 400) return null;
  if (carriesTask(payload)) return null;
  const text = answer.body.toString('utf8');
  const said = saidInBody(payload, text, context.scrubber);
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], context.nowMs);
  const source = { code: payload.code, httpStatus: answer.status, inBody: true, serviceCode: payload.code };
  return refusalOf(source, said.message, retryAfterMs, context.operation);
}

/**
 * The JSON of a 2xx answer that is not a refusal: a body that is not JSON is a ProtocolError,
 * a body whose `code` is 400 or more with no task is the refusal it stands for (thrown).
 */
function acceptedPayload(answer: HttpAnswer, context: ResponseContext): unknown {
  const text = answer.body.toString('utf8');
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    unreadable(answer, context, `The service answered with something that is not JSON`, 'it is not JSON');
  }
  const refusal = bodyRefusalOf(payload, answer, context);
  if (refusal) throw refusal;
  return payload;
}

/** Throws the ProtocolError of an answer that cannot be read, quoting a scrubbed excerpt. */
function unreadable(answer: HttpAnswer, context: ResponseContext, sentence: string, reason: string): never {
  const excerpt = excerptOf(answer.body.toString('utf8'), context.scrubber);
  throw new ProtocolError(`${sentence}: "${excerpt}"`, {
    operation: context.operation,
    status: answer.status,
    excerpt,
    reason,
  });
}

/**
 * A 2xx answer as a task: JSON, then a refusal given as the body's code, then the normaliser;
 * anything unreadable is a ProtocolError.
 */
export function taskFromAnswer(answer: HttpAnswer, context: ResponseContext): RemoteTask {
  const payload = acceptedPayload(answer, context);
  const result = normaliseTaskResponse(safeServiceValue(payload, context.scrubber));
  if (!result.ok) {
    const reason = safeServiceText(result.reason, context.scrubber);
    unreadable(answer, context, `The service's answer is not a task record (${reason})`, reason);
  }
  return result.task;
}

/** A complete answer's payload checked by `schema` after `prepare`; a refusal or an unreadable body is thrown typed. */
function envelopeOf<T>(
  answer: HttpAnswer,
  context: ResponseContext,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  prepare: (payload: unknown) => unknown,
): T {
  if (answer.status < 200 || answer.status > 299) throw errorFromStatus(answer, context);
  const parsed = schema.safeParse(prepare(acceptedPayload(answer, context)));
  if (!parsed.success) {
    const what = OPERATION_WORDS[context.operation].action;
    unreadable(
      answer,
      context,
      `The service's answer could not be read (asked to ${what})`,
      'it does not have the expected fields',
    );
  }
  return parsed.data;
}

/**
 * The `data` of a complete answer that is not a task (the account), every string made safe,
 * checked by `schema`; a refusal (HTTP status or the body's code) or an unreadable body is
 * thrown typed.
 */
export function envelopeFromAnswer<T>(
  answer: HttpAnswer,
  context: ResponseContext,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
): T {
  return envelopeOf(answer, context, schema, (payload) => safeServiceValue(payload, context.scrubber));
}

/** Why an uploaded file's address cannot be used (it holds the key, or uploadUrlProblem), or null. */
export function uploadedAddressProblem(
  url: string,
  scrubber: SecretScrubber,
  where: { endpointIsLocal: boolean },
): string | null {
  return scrubber.text(url) === url ? uploadUrlProblem(url, where) : 'it holds the API key';
}

/**
 * The address an upload answer gives, used only as the service sent it: not holding the key
 * (in any spelling) and passing uploadUrlProblem (https, or http on this computer from an
 * endpoint on it; at most 2048 characters; no control characters). A ProtocolError naming the
 * problem otherwise (never quoting the address, which may hold the key).
 */
export function uploadedUrlOf(
  answer: HttpAnswer,
  context: ResponseContext,
  where: { endpointIsLocal: boolean },
): string {
  const url = envelopeOf(answer, context, UploadAnswerSchema, (payload) => payload).data.url;
  const problem = uploadedAddressProblem(url, context.scrubber, where);
  if (problem) {
    throw new ProtocolError(`The upload endpoint answered an address that cannot be used: ${problem}.`, {
      operation: context.operation,
      status: answer.status,
      excerpt: '',
      reason: problem,
    });
  }
  return url;
}

/** The task of a complete answer, or the typed error it stands for (thrown). */
export function readAnswer(answer: HttpAnswer, context: ResponseContext): RemoteTask {
  if (answer.status >= 200 && answer.status <= 299) return taskFromAnswer(answer, context);
  throw errorFromStatus(answer, context);
}
