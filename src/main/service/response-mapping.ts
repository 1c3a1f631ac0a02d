/**
 * An HTTP answer of the service as a normalised task or a typed error. Error bodies follow
 * `{code, message, data, error: {code, raw_message, message, detail}}` when the service
 * provides them; any other body is tolerated and quoted (scrubbed, at most 200 characters).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ErrorResponseSchema, normaliseTaskResponse, type RemoteTask } from '../../shared/service/index.ts';
import { parseRetryAfter } from './retry-policy.ts';
import type { SecretScrubber } from './secret-scrubber.ts';
import {
  BadRequestError,
  ProtocolError,
  RateLimitedError,
  ServerError,
  type ServiceError,
  type ServiceOperation,
  UnauthorizedError,
} from './service-errors.ts';

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

/** At most 200 characters of a body, secret removed first, whitespace collapsed. */
export function excerptOf(text: string, scrubber: SecretScrubber): string {
  const clean = scrubber.text(text).replace(/\s+/g, ' ').trim();
  return clean.length <= EXCERPT_MAX_CHARS ? clean : `${clean.slice(0, EXCERPT_MAX_CHARS - 1)}…`;
}

interface ServiceSaid {
  message: string | null;
  code: number | null;
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
  const body = ErrorResponseSchema.safeParse(parsed);
  if (!body.success) return { message: excerptOf(text, scrubber) || null, code: null };
  const nested = body.data.error;
  const candidates = [nested?.message, body.data.message, nested?.raw_message];
  const message = candidates.find((m): m is string => typeof m === 'string' && m.trim() !== '');
  const code = typeof nested?.code === 'number' ? nested.code : (body.data.code ?? null);
  return {
    message: message ? scrubber.text(message).slice(0, 1000) : excerptOf(text, scrubber) || null,
    code,
  };
}

function withServiceWords(sentence: string, said: string | null): string {
  return said ? `${sentence}: ${said}` : `${sentence}.`;
}

function actionOf(operation: ServiceOperation): string {
  return operation === 'create' ? 'create the task' : 'fetch the task';
}

/** The typed error of a non-2xx answer. */
export function errorFromStatus(answer: HttpAnswer, context: ResponseContext): ServiceError {
  const { status } = answer;
  const { operation } = context;
  const said = serviceMessageOf(answer.body.toString('utf8'), context.scrubber);
  const retryAfterMs = parseRetryAfter(answer.headers['retry-after'], context.nowMs);
  const base = { operation, status };
  if (status === 401 || status === 403) {
    return new UnauthorizedError(
      `The service refused the API key (HTTP ${status}). Check the key in Settings.${said.message ? ` Service said: ${said.message}` : ''}`,
      base,
    );
  }
  if (status === 429) {
    const wait = retryAfterMs === null ? '' : ` Try again in ${Math.ceil(retryAfterMs / 1000)} s.`;
    return new RateLimitedError(`The service is limiting requests (HTTP 429).${wait}`, {
      ...base,
      retryAfterMs,
      serviceMessage: said.message,
    });
  }
  if (status >= 500 && status <= 599) {
    return new ServerError(
      withServiceWords(`The service failed to ${actionOf(operation)} (HTTP ${status})`, said.message),
      {
        ...base,
        retryAfterMs,
        serviceMessage: said.message,
      },
    );
  }
  if (status >= 400 && status <= 499) {
    const what = status === 404 ? 'The service does not know this task' : 'The service rejected the request';
    return new BadRequestError(withServiceWords(`${what} (HTTP ${status})`, said.message), {
      ...base,
      serviceMessage: said.message,
      serviceCode: said.code,
    });
  }
  return new ProtocolError(`The service answered with an unexpected HTTP status ${status}.`, {
    ...base,
    excerpt: excerptOf(answer.body.toString('utf8'), context.scrubber),
  });
}

/** A 2xx answer as a task: JSON, then the normaliser; anything else is a ProtocolError. */
export function taskFromAnswer(answer: HttpAnswer, context: ResponseContext): RemoteTask {
  const text = answer.body.toString('utf8');
  const base = { operation: context.operation, status: answer.status };
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    const excerpt = excerptOf(text, context.scrubber);
    return protocolFailure(
      `The service answered with something that is not JSON: "${excerpt}"`,
      base,
      excerpt,
    );
  }
  const result = normaliseTaskResponse(context.scrubber.value(payload));
  if (!result.ok) {
    const excerpt = excerptOf(text, context.scrubber);
    const reason = context.scrubber.text(result.reason);
    return protocolFailure(
      `The service's answer is not a task record (${reason}): "${excerpt}"`,
      base,
      excerpt,
    );
  }
  return result.task;
}

function protocolFailure(
  message: string,
  base: { operation: ServiceOperation; status: number },
  excerpt: string,
): never {
  throw new ProtocolError(message, { ...base, excerpt });
}

/** The task of a complete answer, or the typed error it stands for (thrown). */
export function readAnswer(answer: HttpAnswer, context: ResponseContext): RemoteTask {
  if (answer.status >= 200 && answer.status <= 299) return taskFromAnswer(answer, context);
  throw errorFromStatus(answer, context);
}
