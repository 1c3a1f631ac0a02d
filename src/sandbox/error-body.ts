/**
 * Error answers, by answer profile (options.ts AnswerProfile):
 * - spec: the spec leaves error bodies "not shown"; every error has the one shape
 *   `{code, message, data: null, error: {code, raw_message, message, detail: null}}`;
 * - hosted: the real service's shapes (field notes): `{code, message}` for 400, 401 and 403 (the
 *   docs' examples), `{code, data: null, message}` for every other status.
 */
import type { AnswerProfile } from './options.ts';

export interface ErrorBody {
  code: number;
  message: string;
  data: null;
  error: { code: number; raw_message: string; message: string; detail: null };
}

export type HostedErrorBody =
  | { code: number; message: string }
  | { code: number; data: null; message: string };

/** The real service's words for a plan that does not allow an operation (403). */
export const PLAN_REFUSED_MESSAGE = 'Insufficient plan level';

/** The statuses whose hosted error body has no `data` key, as in the docs' examples. */
const HOSTED_TWO_KEY_STATUSES: readonly number[] = [400, 401, 403];

export function errorBody(status: number, message: string, rawMessage = message): ErrorBody {
  return {
    code: status,
    message,
    data: null,
    error: { code: status, raw_message: rawMessage, message, detail: null },
  };
}

/** The hosted profile's error body for `status`. */
export function hostedErrorBody(status: number, message: string): HostedErrorBody {
  return HOSTED_TWO_KEY_STATUSES.includes(status)
    ? { code: status, message }
    : { code: status, data: null, message };
}

/** The error body of a profile. */
export function errorBodyFor(
  profile: AnswerProfile,
  status: number,
  message: string,
): ErrorBody | HostedErrorBody {
  return profile === 'hosted' ? hostedErrorBody(status, message) : errorBody(status, message);
}

/** The 401 message: the sandbox says what is wrong; the hosted profile says what the real service says. */
export function unauthorizedMessage(profile: AnswerProfile, keyGiven: boolean): string {
  if (profile === 'hosted') return 'Invalid API key';
  return keyGiven ? 'x-api-key is not a valid API key' : 'x-api-key header is missing';
}

/** Thrown inside request handling; the server turns it into an error answer. */
export class SandboxHttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SandboxHttpError';
    this.status = status;
    this.headers = headers;
  }
}

export function badRequest(message: string): SandboxHttpError {
  return new SandboxHttpError(400, message);
}
