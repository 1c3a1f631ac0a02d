/**
 * safeStorage, after Electron's shell/browser/api/electron_api_safe_storage.cc, with a
 * reversible fake cipher in place of the OS keychain: the ciphertext is `v11` followed by the
 * text's bytes XOR-ed with a fixed key, so the stored key is never the plain text and decrypts
 * back. Kept from Electron: nothing works before ready (the async calls reject with "safeStorage
 * cannot be used before app is ready", `isAsyncEncryptionAvailable` resolves false,
 * `getSelectedStorageBackend` says `unknown`); a ciphertext without the `v10`/`v11` prefix does
 * not decrypt; an empty ciphertext decrypts to ''. `getSelectedStorageBackend` and
 * `setUsePlainTextEncryption` exist on Linux only. STAND_IN_KEYCHAIN picks the backend Linux
 * reports (`unavailable`: encryption cannot be used at all).
 */
import { config, isReady, record } from './runtime.ts';

const KEY = Buffer.from('stand-in keychain');
const PREFIX = 'v11';

function xor(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((b, i) => b ^ (KEY[i % KEY.length] as number)));
}

function available(): boolean {
  return isReady() && config().keychain !== 'unavailable';
}

function encrypt(plainText: string, method: string): Buffer {
  if (!available()) {
    if (!isReady()) throw new Error('safeStorage cannot be used before app is ready');
    throw new Error(
      `Error while encrypting the text provided to safeStorage.${method}. Encryption is not available.`,
    );
  }
  return Buffer.concat([Buffer.from(PREFIX), xor(Buffer.from(plainText, 'utf8'))]);
}

function decrypt(encrypted: Buffer, method: string): string {
  if (!available()) {
    if (!isReady()) throw new Error('safeStorage cannot be used before app is ready');
    throw new Error(`Error while decrypting the ciphertext provided to safeStorage.${method}.`);
  }
  if (!Buffer.isBuffer(encrypted))
    throw new Error(`Expected the first argument of ${method}() to be a buffer`);
  if (encrypted.length === 0) return '';
  const prefix = encrypted.subarray(0, 3).toString('latin1');
  if (prefix !== 'v10' && prefix !== 'v11') {
    throw new Error(`Error while decrypting the ciphertext provided to safeStorage.${method}.`);
  }
  return xor(encrypted.subarray(3)).toString('utf8');
}

interface StandInSafeStorage {
  isEncryptionAvailable(): boolean;
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  getSelectedStorageBackend?: () => string;
  setUsePlainTextEncryption?: (use: boolean) => void;
}

export const safeStorage: StandInSafeStorage = {
  isEncryptionAvailable(): boolean {
    return available();
  },
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    record('call', 'safeStorage.isAsyncEncryptionAvailable', { answer: available() });
    return available();
  },
  encryptString(plainText: string): Buffer {
    return encrypt(plainText, 'encryptString');
  },
  decryptString(encrypted: Buffer): string {
    return decrypt(encrypted, 'decryptString');
  },
  async encryptStringAsync(plainText: string): Promise<Buffer> {
    record('call', 'safeStorage.encryptStringAsync');
    return encrypt(plainText, 'encryptStringAsync');
  },
  async decryptStringAsync(encrypted: Buffer) {
    record('call', 'safeStorage.decryptStringAsync');
    return { shouldReEncrypt: false, result: decrypt(encrypted, 'decryptStringAsync') };
  },
};

if (config().platform === 'linux') {
  safeStorage.getSelectedStorageBackend = () => {
    const backend = isReady() ? config().keychain : 'unknown';
    const reported = backend === 'unavailable' ? 'basic_text' : backend;
    record('call', 'safeStorage.getSelectedStorageBackend', { answer: reported });
    return reported;
  };
  safeStorage.setUsePlainTextEncryption = (use: boolean) => {
    record('call', 'safeStorage.setUsePlainTextEncryption', { use });
  };
}
