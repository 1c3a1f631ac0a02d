import type { StudioBridge } from '../../shared/index.ts';

declare global {
  interface Window {
    /** The one bridge to the main process (the preload's contextBridge, or the test harness). */
    readonly studio: StudioBridge;
  }
}
