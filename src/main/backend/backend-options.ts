/** What a host passes to create the studio backend. */
import type { EngineOptions } from '../../core/engine/index.ts';
import type { KeyVault, SettingsFile } from '../../core/settings/index.ts';
import type { Dialogs, ShellOps } from './backend-ports.ts';
import type { HostedAddress } from './service-selection.ts';

/** Engine options a host may tune (tests poll faster); the backend sets the rest. */
export type EngineTuning = Omit<EngineOptions, 'libraryDir' | 'service' | 'maxActiveRemote'>;

export interface StudioBackendOptions {
  userDataDir: string;
  secrets: KeyVault;
  settings: SettingsFile;
  dialogs: Dialogs;
  shell: ShellOps;
  appVersion: string;
  platform: string;
  /** Prefix that turns a library-relative path into a URL the renderer can load. */
  mediaBaseUrl: string;
  /**
   * Where the hosted profile sends tasks instead of the real service's public address. Only
   * tests set it, to run the hosted profile against a sandbox that answers like the real service.
   */
  hostedAddress?: HostedAddress;
  /** Speed of the built-in sandbox (0.2 = five times faster than the real service). */
  sandboxTimeScale?: number;
  /** Worker threads of the sandbox's media generation (0: on the main thread). */
  sandboxGenerationWorkers?: number;
  engineTuning?: EngineTuning;
  /** Where unexpected errors and warnings are written (never with the key). Default stderr. */
  log?: (line: string) => void;
}
