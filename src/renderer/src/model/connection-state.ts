/**
 * Why tasks are not reaching the service, in the user's terms, from the engine's status: no
 * network at all, the service not answering at its address, the key refused, or no service set
 * up. Activity rows and the banners read the same answer, so they never disagree. Pure.
 */
import type { EngineStatusView } from '../../../shared/index.ts';

export type ConnectionState =
  | { kind: 'ok' }
  /** The operating system says there is no network. */
  | { kind: 'no-network' }
  /** The network is up, but the service's address does not answer (wrong address, service down). */
  | { kind: 'unreachable'; address: string | null }
  /** The service refused the API key: nothing is sent until another is stored. */
  | { kind: 'key-refused' }
  /** No service is set up (no key, or a key that may not be sent where the settings point). */
  | { kind: 'no-service' };

export function connectionStateOf(status: EngineStatusView | null): ConnectionState {
  if (!status) return { kind: 'ok' };
  if (!status.networkSignal) return { kind: 'no-network' };
  if (status.service === 'none') return { kind: 'no-service' };
  if (status.authProblem) return { kind: 'key-refused' };
  if (!status.online) return { kind: 'unreachable', address: status.serviceAddress };
  return { kind: 'ok' };
}

/** `the service at https://api.piapi.ai`, or `the service` when the address is not known. */
export function serviceAt(address: string | null): string {
  return address ? `the service at ${address}` : 'the service';
}
