/** What main says about itself: settings, engine status and app info. Replaced whole on each event. */
import { create } from 'zustand';
import type { AccountView, AppInfo, EngineStatusView, StudioSettings } from '../../../shared/index.ts';

/** The balance at the service, as last asked; `problem` says why it could not be read. */
export interface AccountState {
  view: AccountView | null;
  problem: string | null;
  checking: boolean;
}

/**
 * What the service said when a key or an address was saved (the balance call is the probe):
 * accepted with the balance, the key refused, nothing answering at the address, or another
 * problem. `what` says which save asked.
 */
export type ServiceCheck =
  | { what: 'key' | 'service'; outcome: 'checking' }
  | { what: 'key' | 'service'; outcome: 'accepted'; balance: string | null }
  | { what: 'key' | 'service'; outcome: 'refused' | 'unreachable' | 'problem'; message: string };

/** Which library the window shows, said once it changed (demo mode turned on or off, another folder). */
export interface LibraryNotice {
  dir: string;
  /** The library shown now is demo mode's. */
  demo: boolean;
  /** The library shown before was demo mode's. */
  fromDemo: boolean;
}

export interface StudioState {
  settings: StudioSettings | null;
  status: EngineStatusView | null;
  appInfo: AppInfo | null;
  /** Why the app could not start talking to main, if it could not. */
  bootError: string | null;
  account: AccountState;
  serviceCheck: ServiceCheck | null;
  libraryNotice: LibraryNotice | null;
  setSettings(settings: StudioSettings): void;
  setStatus(status: EngineStatusView): void;
  setAppInfo(info: AppInfo): void;
  setBootError(message: string | null): void;
  setAccount(patch: Partial<AccountState>): void;
  setServiceCheck(check: ServiceCheck | null): void;
  setLibraryNotice(notice: LibraryNotice | null): void;
}

export const useStudio = create<StudioState>()((set) => ({
  settings: null,
  status: null,
  appInfo: null,
  bootError: null,
  account: { view: null, problem: null, checking: false },
  serviceCheck: null,
  libraryNotice: null,
  setSettings: (settings) => set({ settings }),
  setStatus: (status) => set({ status }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setBootError: (bootError) => set({ bootError }),
  setAccount: (patch) => set((s) => ({ account: { ...s.account, ...patch } })),
  setServiceCheck: (serviceCheck) => set({ serviceCheck }),
  setLibraryNotice: (libraryNotice) => set({ libraryNotice }),
}));
