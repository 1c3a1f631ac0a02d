/**
 * The stored API key as the backend uses it: whether one is stored, why it is not used now,
 * and reads and writes through the host's KeyVault in the bound format (key-binding.ts).
 * Every key read or written is remembered for scrubbing.
 */

import { type BoundKey, decodeBoundKey, encodeBoundKey, type KeyVault } from '../../core/settings/index.ts';
import type { KeyStorage } from '../../shared/index.ts';
import type { KnownSecrets } from './known-secrets.ts';

export class ApiKey {
  readonly #vault: KeyVault;
  readonly #secrets: KnownSecrets;
  /** Whether a key is stored (as far as the last read or write knows). */
  stored = false;
  /** Why a stored key is not used now (a sentence for Settings), or null. */
  problem: string | null = null;
  /** The addresses the settings would send the key to that the user has not confirmed yet (all of them in full), or null. */
  toConfirm: readonly string[] | null = null;

  constructor(vault: KeyVault, secrets: KnownSecrets) {
    this.#vault = vault;
    this.#secrets = secrets;
  }

  storage(): KeyStorage {
    return this.#vault.storage();
  }

  /** The stored key, decoded; null when none is stored. */
  async read(): Promise<BoundKey | null> {
    const stored = await this.#vault.read();
    if (stored === null) return null;
    const bound = decodeBoundKey(stored);
    this.#secrets.add(bound.key);
    return bound;
  }

  async write(bound: BoundKey): Promise<void> {
    this.#secrets.add(bound.key);
    await this.#vault.write(encodeBoundKey(bound));
    this.stored = true;
  }

  async clear(): Promise<void> {
    await this.#vault.clear();
    this.stored = false;
  }
}
