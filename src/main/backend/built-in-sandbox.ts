/**
 * The built-in sandbox of demo mode: how the app runs it, what of it the host may reach, and
 * its lifecycle (started when demo mode needs it, stopped when it does not). The sandbox
 * listens on 127.0.0.1 where any local program or web page could call it, so it runs locked:
 * its control paths want its key, it fetches only its own files, sends no webhooks (a task
 * carrying one fails, saying why), and it refuses requests from web pages of other sites.
 */
import { randomBytes } from 'node:crypto';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index.ts';

export const BUILT_IN_SANDBOX_EXPOSURE = {
  controlAccess: 'api-key',
  outbound: 'loopback-only',
  crossSite: 'refuse',
} as const satisfies Pick<SandboxOptions, 'controlAccess' | 'outbound' | 'crossSite'>;

/**
 * The built-in sandbox's in-process controls: its ledger (with full request bodies), webhook
 * deliveries and faults. For tests and developer tools only: no call of the renderer contract
 * reaches them, and they never hold the key.
 */
export type BuiltInSandboxControls = Pick<Sandbox, 'url' | 'ledger' | 'webhookDeliveries' | 'setFaults'>;

export function controlsOf(sandbox: Sandbox): BuiltInSandboxControls {
  return {
    url: sandbox.url,
    ledger: () => sandbox.ledger(),
    webhookDeliveries: () => sandbox.webhookDeliveries(),
    setFaults: (faults) => sandbox.setFaults(faults),
  };
}

export interface BuiltInSandboxOptions {
  /** Speed (0.2 = five times faster than the real service). */
  timeScale: number;
  /** Worker threads of its media generation (0: on the main thread); its default when absent. */
  generationWorkers?: number;
  /** Told each new key the sandbox is started with, so it is scrubbed like the API key. */
  onKey: (key: string) => void;
}

/** Where a running built-in sandbox listens and the key it wants. */
export interface RunningSandbox {
  url: string;
  key: string;
}

export class BuiltInSandbox {
  readonly #options: BuiltInSandboxOptions;
  #sandbox: Sandbox | null = null;
  #key = '';

  constructor(options: BuiltInSandboxOptions) {
    this.#options = options;
  }

  /** Where it listens while it runs. */
  url(): string | null {
    return this.#sandbox?.url ?? null;
  }

  controls(): BuiltInSandboxControls | null {
    return this.#sandbox ? controlsOf(this.#sandbox) : null;
  }

  /** Starts it with a new key, unless it runs already. */
  async start(): Promise<RunningSandbox> {
    if (!this.#sandbox) {
      this.#key = randomBytes(24).toString('base64url');
      this.#options.onKey(this.#key);
      const workers = this.#options.generationWorkers;
      this.#sandbox = await startSandbox({
        port: 0,
        apiKey: this.#key,
        ...BUILT_IN_SANDBOX_EXPOSURE,
        timeScale: this.#options.timeScale,
        ...(workers !== undefined ? { generationWorkers: workers } : {}),
      });
    }
    return { url: this.#sandbox.url, key: this.#key };
  }

  async stop(): Promise<void> {
    const sandbox = this.#sandbox;
    this.#sandbox = null;
    if (sandbox) await sandbox.stop();
  }
}
