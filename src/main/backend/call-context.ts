/**
 * What the call handlers need from the backend (studio-backend.ts gives it): the engine, the
 * settings, the files and folders the window may name, and a way to send events. The handlers
 * of studio-calls.ts and its *-calls.ts parts take it.
 */
import type { TaskEngine } from '../../core/engine/index.ts';
import type {
  EngineStatusView,
  SettingsUpdate,
  StudioEventName,
  StudioEvents,
  StudioSettings,
} from '../../shared/index.ts';
import type { StudioBackendOptions } from './backend-options.ts';
import type { PathGrants } from './path-grants.ts';

/** What the handlers need from the backend. */
export interface CallContext {
  readonly options: StudioBackendOptions;
  engine(): TaskEngine;
  settingsView(): StudioSettings;
  statusView(): EngineStatusView;
  updateSettings(update: SettingsUpdate): Promise<void>;
  setApiKey(key: string): Promise<void>;
  confirmKeyAddresses(): Promise<void>;
  clearApiKey(): Promise<void>;
  libraryDir(): string;
  sandboxUrl(): string | null;
  /** The files and folders the window may name (dropped, picked, chosen in a dialog, or in the library). */
  readonly grants: PathGrants;
  emit<E extends StudioEventName>(event: E, payload: StudioEvents[E]): void;
}
