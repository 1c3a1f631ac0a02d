/**
 * Points the engine at the service the settings call for (service-selection.ts): the built-in
 * sandbox, started on demand, the real service with the stored key, or none. The key is sent
 * only where it may go: never over a refused address, never to an address (tasks, balance,
 * uploads, in full) the user has not confirmed for it (key-binding.ts). The engine's service is
 * set again only when it changed.
 */
import { createHash } from 'node:crypto';
import type { EngineStatus, ServiceSettings, TaskEngine } from '../../core/engine/index.ts';
import {
  type BoundKey,
  type KeyAddress,
  keyAddressesOf,
  unconfirmedAddresses,
} from '../../core/settings/index.ts';
import {
  apiKeyProblem,
  type EngineStatusView,
  keyTransportProblem,
  type ServiceChoice,
  type ServiceProfile,
  type Settings,
} from '../../shared/index.ts';
import type { ApiKey } from './api-key.ts';
import type { BuiltInSandbox } from './built-in-sandbox.ts';
import { addressList } from './key-questions.ts';
import { chooseService, type HostedAddress, profileOf } from './service-selection.ts';

export class ServiceSwitch {
  readonly #key: ApiKey;
  readonly #sandbox: BuiltInSandbox;
  readonly #hostedAt: HostedAddress | null;
  #kind: ServiceChoice = 'none';
  #address: string | null = null;
  /** The engine last pointed at a service, and what it was pointed at. */
  #engine: TaskEngine | null = null;
  #signature = '';

  constructor(key: ApiKey, sandbox: BuiltInSandbox, hostedAt: HostedAddress | null) {
    this.#key = key;
    this.#sandbox = sandbox;
    this.#hostedAt = hostedAt;
  }

  /**
   * Sets the engine's profile and, when it changed, its service, for these settings. `known`
   * is the key just stored, so it is not read back from the store.
   */
  async apply(engine: TaskEngine, s: Settings, known?: BoundKey): Promise<void> {
    let kind = chooseService(s, this.#key.stored);
    let service: ServiceSettings | null = null;
    let profile = profileOf(s, null, this.#hostedAt);
    this.#key.problem = null;
    this.#key.toConfirm = null;
    if (kind === 'remote') {
      const bound = known ?? (await this.#key.read());
      if (!bound) {
        this.#key.stored = false;
        kind = chooseService(s, false);
      } else {
        this.#key.problem = this.#keyUseProblem(bound, profile);
        if (this.#key.problem) kind = 'none';
        else service = { baseUrl: profile.baseUrl, apiKey: bound.key, uploadUrl: profile.uploadUrl };
      }
    }
    if (kind === 'sandbox') {
      const sandbox = await this.#sandbox.start();
      profile = profileOf(s, sandbox.url, this.#hostedAt);
      service = { baseUrl: sandbox.url, apiKey: sandbox.key, uploadUrl: profile.uploadUrl };
    }
    engine.setProfile(profile);
    const signature = service
      ? `${kind}|${service.baseUrl}|${service.uploadUrl}|${createHash('sha256').update(service.apiKey).digest('hex')}`
      : kind;
    if (engine !== this.#engine || signature !== this.#signature) {
      this.#kind = kind;
      this.#address = kind === 'remote' && service ? service.baseUrl : null;
      this.#engine = engine;
      this.#signature = signature;
      engine.setService(service);
    }
    if (kind !== 'sandbox') await this.#sandbox.stop();
  }

  /** Every address a stored key would be sent to with these settings, demo mode aside; null when nowhere yet. */
  remoteAddressesOf(s: Settings): KeyAddress[] | null {
    return keyAddressesOf(profileOf({ ...s, demoMode: false }, null, this.#hostedAt));
  }

  /** The address a key is checked at with these settings, demo mode aside (the balance call's base); null when none is set. */
  remoteBaseUrlOf(s: Settings): string | null {
    return profileOf({ ...s, demoMode: false }, null, this.#hostedAt).baseUrl || null;
  }

  statusView(status: EngineStatus): EngineStatusView {
    return { ...status, service: this.#kind, serviceAddress: this.#address };
  }

  /**
   * Why the stored key must not be sent to this profile's service, or null. Never throws: a bad
   * stored setting is reported in Settings, and the app keeps working (queueing locally).
   */
  #keyUseProblem(bound: BoundKey, profile: ServiceProfile): string | null {
    const keyProblem = apiKeyProblem(bound.key);
    if (keyProblem) return `The stored API key cannot be used: ${keyProblem}. Store it again.`;
    for (const [what, url] of [
      ['service address', profile.baseUrl],
      ['upload address', profile.uploadUrl],
    ] as const) {
      const problem = url ? keyTransportProblem(url) : null;
      if (problem) return `The ${what} is refused, so the key is not sent: ${problem}.`;
    }
    const wanted = keyAddressesOf(profile) ?? [];
    const unconfirmed = unconfirmedAddresses(bound, wanted);
    if (unconfirmed.length === 0) return null;
    // the user confirms them in Settings (settings.confirmKeyAddresses), in a dialog main owns
    this.#key.toConfirm = wanted.map((a) => a.url);
    if (bound.addresses === null) {
      return 'Your API key was stored by an earlier version of the app, which did not tie it to the addresses it is sent to, so it is not sent yet. Confirm where it goes, or store the key again.';
    }
    const storedFor = bound.addresses.length ? addressList(bound.addresses) : 'no address';
    return `Your API key was stored for ${storedFor}, so it is not sent to ${addressList(unconfirmed.map((a) => a.url))}. Confirm the new addresses if you trust them, go back, or store the key again.`;
  }
}
