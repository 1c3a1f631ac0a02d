/** What main says about itself: settings, engine status and app info. Replaced whole on each event. */
import { create } from 'zustand';
import type { AppInfo, EngineStatusView, StudioSettings } from '../../../shared/index.ts';

export interface StudioState {
  settings: StudioSettings | null;
  status: EngineStatusView | null;
  appInfo: AppInfo | null;
  /** Why the app could not start talking to main, if it could not. */
  bootError: string | null;
  setSettings(settings: StudioSettings): void;
  setStatus(status: EngineStatusView): void;
  setAppInfo(info: AppInfo): void;
  setBootError(message: string | null): void;
}

export const useStudio = create<StudioState>()((set) => ({
  settings: null,
  status: null,
  appInfo: null,
  bootError: null,
  setSettings: (settings) => set({ settings }),
  setStatus: (status) => set({ status }),
  setAppInfo: (appInfo) => set({ appInfo }),
  setBootError: (bootError) => set({ bootError }),
}));
