/**
 * The sandbox's own outgoing HTTP (image and audio URL inputs, webhook deliveries) on one undici Agent,
 * so stop() can close every socket it opened. Under `loopback-only` (outbound-policy.ts) it
 * fetches only the sandbox's own URLs, follows no redirect, connects only to loopback addresses,
 * words every failure to fetch the same way, and sends no webhook.
 */
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { LIMITS } from '../shared/catalog/index.ts';
import type { OutboundMode } from './options.ts';
import {
  imageUrlProblem,
  loopbackConnector,
  NO_WEBHOOKS,
  OWN_FILE_UNREADABLE,
  webhookEndpointProblem,
} from './outbound-policy.ts';

const IMAGE_FETCH_TIMEOUT_MS = 15_000;
/** A source song can be a few tens of MB. */
const AUDIO_FETCH_TIMEOUT_MS = 60_000;

export class OutboundHttp {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;
  private readonly stopping = new AbortController();
  private readonly mode: OutboundMode;
  private readonly ownOrigin: () => string;

  /** `ownOrigin` gives the sandbox's own origin once it listens. */
  constructor(mode: OutboundMode = 'any', ownOrigin: () => string = () => '') {
    this.mode = mode;
    this.ownOrigin = ownOrigin;
    const limited = mode === 'loopback-only';
    this.agent = new Agent({
      keepAliveTimeout: 2_000,
      keepAliveMaxTimeout: 10_000,
      ...(limited ? { connect: loopbackConnector() } : {}),
    });
    // its own files never redirect; elsewhere CDNs do
    this.dispatcher = limited
      ? this.agent
      : this.agent.compose(interceptors.redirect({ maxRedirections: 5 }));
  }

  /** Why a webhook endpoint is refused at create, or null. */
  webhookProblem(endpoint: string): string | null {
    return webhookEndpointProblem(endpoint, this.mode);
  }

  /** Downloads an image URL (size-capped); throws a readable Error when it cannot. */
  fetchImage(url: string): Promise<Buffer> {
    return this.fetchInput(url, LIMITS.imageMaxBytes, IMAGE_FETCH_TIMEOUT_MS);
  }

  /** Downloads an audio URL (a source song; size-capped) under the same policy as images. */
  fetchAudio(url: string): Promise<Buffer> {
    return this.fetchInput(url, LIMITS.audioMaxBytes, AUDIO_FETCH_TIMEOUT_MS);
  }

  private async fetchInput(url: string, cap: number, timeoutMs: number): Promise<Buffer> {
    const refused = imageUrlProblem(url, this.mode, this.ownOrigin());
    if (refused) throw new Error(refused);
    try {
      return await this.readFile(url, cap, timeoutMs);
    } catch (err) {
      // under loopback-only nothing tells one failure from another
      if (this.mode === 'loopback-only') throw new Error(OWN_FILE_UNREADABLE);
      throw err;
    }
  }

  private async readFile(url: string, cap: number, timeoutMs: number): Promise<Buffer> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(url, {
        dispatcher: this.dispatcher,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      throw new Error(describeError(err));
    }
    if (res.statusCode < 200 || res.statusCode > 299) {
      res.body.resume();
      throw new Error(`HTTP ${res.statusCode}`);
    }
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
    if (this.webhookProblem(url)) throw new Error(NO_WEBHOOKS);
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
