/**
 * One HTTP request/response on an undici dispatcher, with a record of how far the request got
 * (headers and body written, response started). That record is what tells a failed create that
 * surely never reached the service from one that may have been received and billed.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';

export interface ExchangeRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string | AsyncIterable<Uint8Array> | undefined;
  signal?: AbortSignal | undefined;
  /** Larger answers are cut off and reported as `too-large`. */
  maxResponseBytes: number;
}

/** How far the request got before it ended. */
export interface ExchangeProgress {
  /** Bytes of the body handed to the socket. */
  bodyBytesSent: number;
  /** The whole request (headers and body) was handed to the socket. */
  requestSent: boolean;
  /** The first bytes of an answer arrived. */
  responseStarted: boolean;
}

export type ExchangeOutcome =
  | {
      type: 'response';
      status: number;
      headers: IncomingHttpHeaders;
      body: Buffer;
      progress: ExchangeProgress;
    }
  | { type: 'too-large'; status: number; limit: number; progress: ExchangeProgress }
  | { type: 'aborted'; progress: ExchangeProgress }
  /** The body source supplied by the caller threw: its error is given back as is. */
  | { type: 'body-source-failed'; error: unknown; progress: ExchangeProgress }
  | { type: 'transport-failed'; error: Error; progress: ExchangeProgress };

class ResponseTooLarge extends Error {}

/** Wraps a caller's body source so that its own failure can be told from a socket failure. */
function guardedBody(
  source: AsyncIterable<Uint8Array>,
  onError: (error: unknown) => void,
): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      try {
        for await (const chunk of source) yield chunk;
      } catch (error) {
        onError(error);
        throw error;
      }
    },
  };
}

interface ExchangeState {
  progress: ExchangeProgress;
  status: number;
  headers: IncomingHttpHeaders;
  chunks: Buffer[];
  received: number;
  tooLarge: boolean;
  bodySourceError: { error: unknown } | null;
}

function newState(): ExchangeState {
  return {
    progress: { bodyBytesSent: 0, requestSent: false, responseStarted: false },
    status: 0,
    headers: {},
    chunks: [],
    received: 0,
    tooLarge: false,
    bodySourceError: null,
  };
}

function failureOutcome(
  state: ExchangeState,
  error: Error,
  signal: AbortSignal | undefined,
): ExchangeOutcome {
  const progress = state.progress;
  if (state.tooLarge) return { type: 'too-large', status: state.status, limit: 0, progress };
  if (state.bodySourceError)
    return { type: 'body-source-failed', error: state.bodySourceError.error, progress };
  if (signal?.aborted) return { type: 'aborted', progress };
  return { type: 'transport-failed', error, progress };
}

export function exchange(dispatcher: Dispatcher, request: ExchangeRequest): Promise<ExchangeOutcome> {
  const state = newState();
  const { signal } = request;
  let body: string | Readable | null = null;
  if (typeof request.body === 'string') body = request.body;
  else if (request.body) {
    const guarded = guardedBody(request.body, (error) => {
      state.bodySourceError = { error };
    });
    body = Readable.from(guarded, { objectMode: false });
  }

  return new Promise<ExchangeOutcome>((resolve) => {
    if (signal?.aborted) {
      resolve({ type: 'aborted', progress: state.progress });
      return;
    }
    let controller: Dispatcher.DispatchController | null = null;
    const onAbort = () =>
      controller?.abort(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    const finish = (outcome: ExchangeOutcome) => {
      signal?.removeEventListener('abort', onAbort);
      // undici frees a keep-alive connection one event-loop turn after the answer ends
      // (setImmediate); resolving two turns later lets a request made right after this one
      // reuse it instead of opening another.
      setImmediate(() => setImmediate(() => resolve(outcome)));
    };

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(ctrl) {
        controller = ctrl;
        if (signal?.aborted) ctrl.abort(new Error('aborted'));
      },
      onBodySent(chunk) {
        state.progress.bodyBytesSent += chunk.length;
      },
      onRequestSent() {
        state.progress.requestSent = true;
      },
      onResponseStarted() {
        state.progress.responseStarted = true;
      },
      onResponseStart(_ctrl, statusCode, headers) {
        state.progress.responseStarted = true;
        state.status = statusCode;
        state.headers = headers;
      },
      onResponseData(ctrl, chunk) {
        state.received += chunk.length;
        if (state.received > request.maxResponseBytes) {
          state.tooLarge = true;
          ctrl.abort(new ResponseTooLarge('response too large'));
          return;
        }
        state.chunks.push(chunk);
      },
      onResponseEnd() {
        finish({
          type: 'response',
          status: state.status,
          headers: state.headers,
          body: Buffer.concat(state.chunks),
          progress: state.progress,
        });
      },
      onResponseError(_ctrl, error) {
        const outcome = failureOutcome(state, error, signal);
        finish(outcome.type === 'too-large' ? { ...outcome, limit: request.maxResponseBytes } : outcome);
      },
    };

    try {
      dispatcher.dispatch(
        { method: request.method, path: request.path, headers: request.headers, body },
        handler,
      );
    } catch (error) {
      finish(failureOutcome(state, error instanceof Error ? error : new Error(String(error)), signal));
    }
  });
}
