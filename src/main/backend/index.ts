/**
 * The studio backend's public surface: the window's calls (the renderer contract) routed over
 * the headless core (src/core) on plain Node, with the adapters a host passes in. It belongs to
 * the shell (the CLI runs the core without it) but imports nothing from electron, so the browser
 * tests run it in Node.
 *
 * Plain Node (tests, the browser harness; their adapters are in test/support/):
 *   const backend = await createStudioBackend({
 *     userDataDir, secrets: new FileKeyVault(userDataDir),
 *     settings: createNodeSettingsFile(userDataDir), dialogs: new ScriptedDialogs(folder),
 *     shell: new RecordingShell(), appVersion: '0.1.0', platform: process.platform,
 *     mediaBaseUrl: 'http://127.0.0.1:<port>/media/',
 *   });
 */
export type { EngineTuning, StudioBackendOptions } from './backend-options.ts';
export type { ConfirmQuestion, Dialogs, FileFilter, ShellOps } from './backend-ports.ts';
export { BUILT_IN_SANDBOX_EXPOSURE, type BuiltInSandboxControls } from './built-in-sandbox.ts';
export { errorViewOf, INTERNAL_MESSAGE, StudioCallError } from './call-errors.ts';
export { chooseService } from './service-selection.ts';
export { createStudioBackend, type StudioBackend } from './studio-backend.ts';
export { NEWS_STATES, TaskFinishWatch } from './task-finish-watch.ts';
