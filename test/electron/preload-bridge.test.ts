/**
 * The preload's bridge object over a transport wired straight to the real backend (in the app,
 * the transport is ipcRenderer and the main process's handlers, which forward to the same
 * backend): it exposes exactly the contract, unwraps results, carries error views through an
 * Error's message (all that survives contextBridge), and hands listeners only the payload.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BridgeTransport, createStudioBridge } from '../../src/preload/studio-bridge.ts';
import type { StudioBridge, StudioErrorView, StudioEventName, TaskChange } from '../../src/shared/index.ts';
import {
  closeBackendRig,
  type Harness,
  openBackendRig,
  SONG,
  waitUntil,
} from '../backend/backend-fixtures.ts';

let dir: string;
let h: Harness;
let bridge: StudioBridge;
const channelsInvoked: string[] = [];
let pathForFileThrows = false;
const granted: string[] = [];

/** What crosses contextBridge from a rejected promise: a new Error with the message only. */
async function acrossContextBridge<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (err) {
    throw new Error((err as Error).message);
  }
}

function errorViewOf(err: unknown): StudioErrorView {
  return JSON.parse((err as Error).message) as StudioErrorView;
}

beforeAll(async () => {
  ({ dir, h } = await openBackendRig('mts-preload-'));
  const transport: BridgeTransport = {
    invoke: async (channel, args) => {
      channelsInvoked.push(channel);
      expect(channel.startsWith('studio:')).toBe(true);
      return h.backend.handle(channel.slice('studio:'.length), structuredClone(args));
    },
    subscribe: (channel, listener) =>
      h.backend.on(channel.slice('studio:'.length) as StudioEventName, listener),
    pathForFile: () => {
      if (pathForFileThrows) throw new Error('not a file');
      return '/home/user/photo.png';
    },
    grantFile: (path) => {
      granted.push(path);
      h.backend.grantDroppedFile(path);
    },
  };
  bridge = createStudioBridge(transport);
});

afterAll(() => closeBackendRig({ dir, h }));

describe('the preload bridge', () => {
  it('unwraps a successful call', async () => {
    const info = await bridge.invoke('app.info', {});
    expect(info.version).toBe('9.9.9');
    expect(channelsInvoked).toContain('studio:app.info');
  });

  it('rejects a failed call with the error view in the message', async () => {
    const err = await acrossContextBridge(bridge.invoke('tasks.get', { id: '' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(errorViewOf(err)).toMatchObject({ kind: 'invalid-input', field: 'id' });
    // the user declines main's question about storing the key without a keyring
    h.dialogs.confirmAnswer = false;
    const weak = await bridge
      .invoke('settings.setApiKey', { key: 'a-long-enough-key' })
      .catch((e: unknown) => e);
    expect(errorViewOf(weak)).toMatchObject({ kind: 'weak-storage', field: 'key' });
  });

  it('refuses names outside the contract without sending anything', async () => {
    const before = channelsInvoked.length;
    const invoke = bridge.invoke as unknown as (name: string, args: unknown) => Promise<unknown>;
    for (const name of ['tasks.explode', 'constructor', '__proto__', 'studio:app.info']) {
      const err = await invoke(name, {}).catch((e: unknown) => e);
      expect(errorViewOf(err).kind).toBe('unknown-call');
    }
    expect(channelsInvoked.length).toBe(before);
    const on = bridge.on as unknown as (event: string, listener: unknown) => () => void;
    expect(() => on('ipc-raw', () => undefined)).toThrow(/no event named/);
    expect(() => on('tasks.changed', 'not a function')).toThrow(/must be a function/);
  });

  it('hands listeners the payload only, and unsubscribes', async () => {
    const received: unknown[][] = [];
    const off = bridge.on('tasks.changed', (...args: unknown[]) => {
      received.push(args);
    });
    const menu: string[] = [];
    const offMenu = bridge.on('menu.command', (c) => menu.push(c));
    await bridge.invoke('tasks.queue', SONG);
    await waitUntil(() => received.length > 0, 'a tasks.changed delivery', 3_000);
    expect(received[0]).toHaveLength(1);
    expect(Array.isArray(received[0]?.[0])).toBe(true);
    const batch = (received[0]?.[0] ?? []) as TaskChange[];
    expect(batch[0]?.task?.model).toBe(SONG.model);
    h.backend.emitMenuCommand('library');
    offMenu();
    h.backend.emitMenuCommand('activity');
    expect(menu).toEqual(['library']);
    off();
  });

  it('gives the path of a dropped file, or empty text, and tells main the user gave that file', () => {
    const file = new File(['x'], 'photo.png');
    expect(bridge.pathForFile(file)).toBe('/home/user/photo.png');
    expect(granted).toEqual(['/home/user/photo.png']);
    pathForFileThrows = true;
    expect(bridge.pathForFile(file)).toBe('');
    expect(granted).toHaveLength(1);
    pathForFileThrows = false;
  });

  it('lets the page name only files the user gave: media.check of another path is refused unread', async () => {
    const other = await bridge.invoke('media.check', {
      field: 'image1',
      value: '/etc/hostname',
      kind: 'image',
    });
    expect(other.ok).toBe(false);
    expect(other.message).toMatch(/not given to the app/);
    const given = await bridge.invoke('media.check', {
      field: 'image1',
      value: '/home/user/photo.png',
      kind: 'image',
    });
    // granted: now it is really looked at (and it does not exist here)
    expect(given.message).not.toMatch(/not given to the app/);
  });

  it('exposes exactly invoke, on and pathForFile', () => {
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on', 'pathForFile']);
  });
});
