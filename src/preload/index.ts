/**
 * The preload: exposes `window.studio` (the StudioBridge of the contract) through contextBridge
 * and nothing else; raw ipcRenderer never reaches the page. Bundled as CommonJS (index.cjs)
 * because sandboxed preloads cannot be ES modules.
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer, webUtils } from 'electron';
import { GRANT_FILE_CHANNEL } from '../shared/ipc/index.ts';
import { createStudioBridge } from './studio-bridge.ts';

const bridge = createStudioBridge({
  invoke: (channel, args) => ipcRenderer.invoke(channel, args),
  subscribe(channel, listener) {
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
  pathForFile: (file) => webUtils.getPathForFile(file),
  grantFile: (path) => ipcRenderer.send(GRANT_FILE_CHANNEL, path),
});

contextBridge.exposeInMainWorld('studio', bridge);
