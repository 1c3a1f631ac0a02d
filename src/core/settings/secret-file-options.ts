/**
 * The options of the electron-store (conf) file that keeps the API key as safeStorage ciphertext,
 * `secret.json` in the user-data folder: owner-only (0600, applied on every write). Kept apart
 * from the electron-store instance that uses them so the options are tested with conf on plain Node.
 */
import { PRIVATE_CONFIG_FILE_MODE } from './conf-settings-file.ts';

export const SECRET_STORE_NAME = 'secret';

export interface SecretFileOptions {
  name: string;
  cwd: string;
  clearInvalidConfig: boolean;
  configFileMode: number;
}

export function secretFileOptions(userDataDir: string): SecretFileOptions {
  return {
    name: SECRET_STORE_NAME,
    cwd: userDataDir,
    clearInvalidConfig: true,
    configFileMode: PRIVATE_CONFIG_FILE_MODE,
  };
}
