/**
 * The sandbox's own outgoing HTTP (image URL inputs, webhook deliveries) on one undici Agent,
 * so stop() can close every socket it opened.
 */
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { LIMITS } from '../shared/catalog/index.ts';

const IMAGE_FETCH_TIMEOUT_MS = 15_000;

export class OutboundHttp {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;
  private readonly stopping = new AbortController();

  constructor() {
    this.agent = new Agent({ keepAliveTimeout: 2_000, keepAliveMaxTimeout: 10_000 });
    this.dispatcher = this.agent.compose(interceptors.redirect({ maxRedirections: 5 }));
  }

  /** Downloads an image URL (size-capped); throws a readable Error when it cannot. */
  async fetchImage(url: string): Promise<Buffer> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: this.dispatcher,
        signal: AbortSignal.any([AbortSignal.timeout(IMAGE_FETCH_TIMEOUT_MS), this.stopping.signal]),
        headersTimeout: IMAGE_FETCH_TIMEOUT_MS,
        bodyTimeout: IMAGE_FETCH_TIMEOUT_MS,
      });
    } catch (err) {
      throw new Error(describeError(err));
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      res.body.resume();
      throw new Error(`HTTP ${res.statusCode}`);
    }
    const cap = LIMITS.imageMaxBytes;
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of res.body) {
      total += (chunk as Buffer).length;
      if (total > cap) {
        res.body.destroy();
        throw new Error(`the URL's file is too large (more than ${cap} bytes)`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /** POSTs JSON; resolves with the HTTP status, rejects on network error or timeout. */
  async postJson(
    url: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<number> {
    const res = await request(url, {
      method: 'POST',
      dispatcher: this.agent,
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    res.body.resume();
    return res.statusCode;
  }

  async close(): Promise<void> {
    this.stopping.abort(new Error('sandbox stopped'));
    await this.agent.destroy().catch(() => undefined);
  }
}

export function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timed out';
    return err.message || err.name;
  }
  return String(err);
}
