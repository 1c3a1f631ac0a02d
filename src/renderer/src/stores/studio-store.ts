/** What main says about itself: settings, engine status and app info. Replaced whole on each event. */
import { create } from 'zustand';
import type { AccountView, AppInfo, EngineStatusView, StudioSettings } from '../../../shared/index.ts';

/** The balance at the service, as last asked; `problem` says why it could not be read. */
export interface AccountState {
  view: AccountView | null;
  problem: string | null;
  checking: boolean;
}

export interface StudioState {
  settings: StudioSettings | null;
  status: EngineStatusView | null;
  appInfo: AppInfo | null;
  /** Why the app could not start talking to main, if it could not. */
  bootError: string | null;
  account: AccountState;
  setSettings(settings: StudioSettings): void;
  setStatus(status: EngineStatusView): void;
  setAppInfo(info: AppInfo): void;
  setBootError(message: string | null): void;
  setAccount(patch: Partial<AccountState>): void;
}

export const useStudio = create<StudioState>()((set) => ({
  settings: null,
  status: null,
  appInfo: null,
  bootError: null,
  account: { view: null, problem: null, checking: false },
  setSettings: (settings) => set({ settings }),
  setStatus: (status) => set({ status }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setBootError: (bootError) => set({ bootError }),
  setAccount: (patch) => set((s) => ({ account: { ...s.account, ...patch } })),
}));
