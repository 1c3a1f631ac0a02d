/**
 * Error answers. The spec leaves error bodies "not shown"; every error the sandbox answers has
 * this one shape: `{code, message, data: null, error: {code, raw_message, message, detail: null}}`.
 */

export interface ErrorBody {
  code: number;
  message: string;
  data: null;
  error: { code: number; raw_message: string; message: string; detail: null };
}

export function errorBody(status: number, message: string, rawMessage = message): ErrorBody {
  return {
    code: status,
    message,
    data: null,
    error: { code: status, raw_message: rawMessage, message, detail: null },
  };
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
