/**
 * What the app keeps between runs besides the library: the settings file (its JSON schema
 * generated from the one settings object in src/shared/settings, its check on read, its
 * conf-style store) and the API key's stored format and file. The stores themselves come from
 * the host: electron-store and safeStorage in the app (src/main/platform/), plain files in tests.
 */
export {
  type ConfLike,
  type ConfOpenOptions,
  ConfSettingsFile,
  type OpenConf,
  PRIVATE_CONFIG_FILE_MODE,
  PRIVATE_CONFIG_FOLDER_MODE,
  repairSettingsFile,
} from './conf-settings-file.ts';
export {
  type BoundKey,
  decodeBoundKey,
  encodeBoundKey,
  type KeyAddress,
  keyAddressesOf,
  unconfirmedAddresses,
} from './key-binding.ts';
export { SECRET_STORE_NAME, type SecretFileOptions, secretFileOptions } from './secret-file-options.ts';
export {
  checkSettingsPatch,
  readPersistedSettings,
  SETTINGS_FILE_NAME,
  SETTINGS_JSON_SCHEMA,
  type SettingsReading,
} from './settings-file.ts';
export type { KeyVault, SettingsFile } from './settings-ports.ts';
