/**
 * The API key as safeStorage ciphertext kept in electron-store (`secret.json`), tagged with the
 * method that encrypted it (platform and Linux backend), so a key encrypted by a keychain that
 * is gone reads as "enter it again" rather than garbage, and a key kept by the weak fallback is
 * re-encrypted once a keychain appears. Storage: `os` with a real keychain, `weak` when Linux
 * falls back to `basic_text` (no keyring: the user is asked before storing), `unavailable` when
 * encryption cannot be used at all.
 */
import { safeStorage } from 'electron';
import ElectronStore from 'electron-store';
import { type KeyVault, secretFileOptions } from '../../core/settings/index.ts';
import type { KeyStorage } from '../../shared/index.ts';

interface StoredSecret {
  /** e.g. `safeStorage:linux:gnome_libsecret`, `safeStorage:darwin:keychain`. */
  method: string;
  /** Base64 of the safeStorage ciphertext. */
  ciphertext: string;
}

type SecretFile = { apiKey?: StoredSecret };

export class SafeStorageKeyVault implements KeyVault {
  readonly #file: ElectronStore<SecretFile>;
  readonly #storage: KeyStorage;
  readonly #method: string;
  readonly #log: (line: string) => void;

  private constructor(
    file: ElectronStore<SecretFile>,
    storage: KeyStorage,
    method: string,
    log: (line: string) => void,
  ) {
    this.#file = file;
    this.#storage = storage;
    this.#method = method;
    this.#log = log;
  }

  /** Call after the app is ready (the keychain backend is only known then). */
  static async open(userDataDir: string, log: (line: string) => void): Promise<SafeStorageKeyVault> {
    const available = await safeStorage.isAsyncEncryptionAvailable();
    const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : 'keychain';
    const storage = !available ? 'unavailable' : backend === 'basic_text' ? 'weak' : 'os';
    // `secret.json`, owner-only (0600)
    const file = new ElectronStore<SecretFile>(secretFileOptions(userDataDir));
    return new SafeStorageKeyVault(file, storage, `safeStorage:${process.platform}:${backend}`, log);
  }

  storage(): KeyStorage {
    return this.#storage;
  }

  async read(): Promise<string | null> {
    const stored = this.#file.get('apiKey');
    if (!stored || typeof stored.ciphertext !== 'string') return null;
    if (this.#storage === 'unavailable') return null;
    try {
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(
        Buffer.from(stored.ciphertext, 'base64'),
      );
      // re-encrypt when asked to, or to move a weakly kept key into a keychain; never downgrade
      if (this.#storage === 'os' && (shouldReEncrypt || stored.method !== this.#method))
        await this.write(result);
      return result;
    } catch {
      this.#log(
        `the stored API key could not be decrypted (it was encrypted with ${stored.method}, this session uses ${this.#method}); enter it again in Settings`,
      );
      return null;
    }
  }

  async write(key: string): Promise<void> {
    if (this.#storage === 'unavailable') throw new Error('encryption is not available on this system');
    const ciphertext = await safeStorage.encryptStringAsync(key);
    this.#file.set('apiKey', { method: this.#method, ciphertext: ciphertext.toString('base64') });
  }

  clear(): void {
    this.#file.delete('apiKey');
  }
}
