/**
 * What runs in the test page in place of the Electron preload: the preload's own bridge
 * (createStudioBridge from src/preload/studio-bridge.ts, the same code Electron loads) over a
 * transport made of the page bindings studio-bridge.ts exposes, instead of ipcRenderer and
 * webUtils. Bundled into one script by page-bridge-script.ts and added before the app's scripts.
 */
import { createStudioBridge } from '../../../src/preload/studio-bridge.ts';

interface PageGlobals {
  /** Answers the StudioResult of a call as JSON text. */
  __studioInvoke(name: string, args: unknown): Promise<string>;
  /** Takes `[channel, payload]` as JSON text. */
  __studioEmit(message: string): void;
  /** File.name -> the real path of a file a test registered (webUtils.getPathForFile's stand-in). */
  __studioFilePaths: Record<string, string>;
  __studioGrant(path: string): Promise<void>;
}

const page = globalThis as unknown as PageGlobals;
const CHANNEL_PREFIX = 'studio:';
const listeners = new Map<string, Set<(payload: unknown) => void>>();
page.__studioFilePaths = page.__studioFilePaths ?? {};
page.__studioEmit = (message) => {
  const [channel, payload] = JSON.parse(message) as [string, unknown];
  for (const listener of [...(listeners.get(channel) ?? [])]) {
    try {
      listener(payload);
    } catch (err) {
      console.error(`studio bridge: a listener of ${channel} threw`, err);
    }
  }
};

const bridge = createStudioBridge({
  async invoke(channel, args) {
    const name = channel.startsWith(CHANNEL_PREFIX) ? channel.slice(CHANNEL_PREFIX.length) : channel;
    return JSON.parse(await page.__studioInvoke(name, args));
  },
  subscribe(channel, listener) {
    let set = listeners.get(channel);
    if (!set) {
      set = new Set();
      listeners.set(channel, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  },
  pathForFile: (file) => page.__studioFilePaths[file.name] ?? '',
  grantFile: (path) => void page.__studioGrant(path),
});

// contextBridge.exposeInMainWorld gives the page a frozen, non-writable `studio`
Object.defineProperty(globalThis, 'studio', {
  value: Object.freeze(bridge),
  writable: false,
  configurable: false,
});
