/**
 * The service the engine talks to: the settings it was given, the client made for them, the
 * profile new tasks are queued with, and whether the service refused the key. New settings
 * make a new client (the old one is closed) and clear the refusal.
 */
import type { ServiceProfile } from '../../shared/index.ts';
import { type RetryPolicy, ServiceClient } from '../service/index.ts';
import { TaskActionError } from './engine-errors.ts';
import { AUTH_PROBLEM } from './failure-outcomes.ts';

export interface ServiceSettings {
  baseUrl: string;
  apiKey: string;
  /** The service's file upload endpoint; local inputs go inline without one. */
  uploadUrl?: string;
}

export interface ServiceConnectionOptions {
  profile: ServiceProfile;
  clientRetry?: Partial<RetryPolicy>;
  random: () => number;
}

export class ServiceConnection {
  readonly #options: ServiceConnectionOptions;
  #client: ServiceClient | null = null;
  #settings: ServiceSettings | null = null;
  #authProblem: string | null = null;
  /** The profile tasks queued from now on are sent with (tasks already queued keep theirs). */
  profile: ServiceProfile;

  constructor(options: ServiceConnectionOptions) {
    this.#options = options;
    this.profile = options.profile;
  }

  /** The client for the settings in force; null when there are none (no key or no address). */
  get client(): ServiceClient | null {
    return this.#client;
  }

  get settings(): ServiceSettings | null {
    return this.#settings;
  }

  /** Why sending waits for new settings (the service refused the key); null when it does not. */
  get authProblem(): string | null {
    return this.#authProblem;
  }

  /** Uses these settings from now on; null (or no key) leaves the engine without a service. */
  set(service: ServiceSettings | null): void {
    const old = this.#client;
    this.#client = null;
    this.#settings = service?.apiKey && service.baseUrl ? { ...service } : null;
    if (old) void old.close();
    if (this.#settings) {
      this.#client = new ServiceClient({
        baseUrl: this.#settings.baseUrl,
        apiKey: this.#settings.apiKey,
        uploadUrl: this.#settings.uploadUrl ?? '',
        retry: this.#options.clientRetry,
        random: this.#options.random,
      });
    }
    this.#authProblem = null;
  }

  /** The service refused the key: nothing is sent until the settings change. True when this is news. */
  noteKeyRefused(): boolean {
    if (this.#authProblem === AUTH_PROBLEM) return false;
    this.#authProblem = AUTH_PROBLEM;
    return true;
  }

  requireClient(): ServiceClient {
    if (!this.#client) throw new TaskActionError('no service is set up: add an API key or use the sandbox');
    return this.#client;
  }

  async close(): Promise<void> {
    await this.#client?.close();
  }
}
