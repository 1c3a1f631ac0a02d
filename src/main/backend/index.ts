/**
 * The studio backend's door: the renderer contract over the task engine on plain Node, with the
 * adapters a host passes in. Nothing here imports electron.
 *
 * Plain Node (tests, the browser harness):
 *   const backend = await createStudioBackend({
 *     userDataDir, secrets: new FileSecretStore(userDataDir),
 *     settings: createNodeSettingsStore(userDataDir), dialogs: new ScriptedDialogs(folder),
 *     shell: new RecordingShell(), appVersion: '0.1.0', platform: process.platform,
 *     mediaBaseUrl: 'http://127.0.0.1:<port>/media/',
 *   });
 */
export type { ConfirmQuestion, Dialogs, SecretStore, SettingsStore, ShellOps } from './backend-ports.ts';
export { BUILT_IN_SANDBOX_EXPOSURE, type BuiltInSandboxControls } from './built-in-sandbox.ts';
export { errorViewOf, INTERNAL_MESSAGE, StudioCallError } from './call-errors.ts';
export {
  type ConfLike,
  type ConfOpenOptions,
  ConfSettingsStore,
  createNodeSettingsStore,
  type OpenConf,
  PRIVATE_CONFIG_FILE_MODE,
  PRIVATE_CONFIG_FOLDER_MODE,
  repairSettingsFile,
} from './conf-settings-store.ts';
export {
  libraryRelativePath,
  MEDIA_TYPES,
  mediaTypeOf,
  resolveLibraryFile,
  resolveLibraryMediaPath,
} from './media-path.ts';
export {
  type ByteRange,
  type MediaResponsePlan,
  parseRangeHeader,
  planMediaResponse,
} from './media-range.ts';
export {
  FileSecretStore,
  RecordingShell,
  ScriptedDialogs,
  SECRET_FILE_NAME,
  type ShellCall,
} from './node-adapters.ts';
export {
  DEFAULT_SETTINGS,
  type PersistedSettings,
  readPersistedSettings,
  SETTINGS_FILE_NAME,
  SETTINGS_JSON_SCHEMA,
} from './persisted-settings.ts';
export { SECRET_STORE_NAME, type SecretFileOptions, secretFileOptions } from './secret-file-options.ts';
export { chooseService, type ServiceChoice } from './service-selection.ts';
export {
  createStudioBackend,
  type EngineTuning,
  type StudioBackend,
  type StudioBackendOptions,
} from './studio-backend.ts';
export { NEWS_STATES, TaskFinishWatch } from './task-finish-watch.ts';
