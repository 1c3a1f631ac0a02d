/**
 * How the app runs its built-in sandbox (demo mode), and what of it the host may reach. The
 * sandbox listens on 127.0.0.1 where any local program or web page could call it, so it runs
 * locked: its control paths want its key, it fetches only its own files and sends webhooks
 * only to this computer, and it refuses requests from web pages of other sites.
 */
import type { Sandbox, SandboxOptions } from '../../sandbox/index.ts';

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
