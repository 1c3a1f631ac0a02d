/**
 * The ONE place that touches `window.studio`. Calls are typed from the contract; a failed call
 * always rejects with a StudioError (kind, field, message) whatever shape crossed the bridge.
 * Read as `globalThis.studio` (the window is the page's global), so the window's state runs on
 * Node in tests with the preload's bridge over the real backend (test/backend windowBridge).
 */
import {
  type StudioBridge,
  type StudioCallArgs,
  type StudioCallName,
  type StudioCallResult,
  StudioError,
  type StudioEventName,
  type StudioEvents,
} from '../../shared/index.ts';
import { toStudioError } from './model/studio-error.ts';

export { toStudioError };

function studio(): StudioBridge {
  const bridge = (globalThis as { studio?: StudioBridge }).studio;
  if (!bridge)
    throw new StudioError({
      kind: 'internal',
      message: 'The app bridge is missing; restart the app.',
      field: null,
    });
  return bridge;
}

export async function invoke<K extends StudioCallName>(
  name: K,
  args: StudioCallArgs<K>,
): Promise<StudioCallResult<K>> {
  try {
    return await studio().invoke(name, args);
  } catch (thrown) {
    throw toStudioError(thrown);
  }
}

export function on<E extends StudioEventName>(
  event: E,
  listener: (payload: StudioEvents[E]) => void,
): () => void {
  return studio().on(event, listener);
}

/** The local path of a dropped or picked File; '' when it has none (a File made in memory). */
export function pathForFile(file: File): string {
  try {
    return studio().pathForFile(file) ?? '';
  } catch {
    return '';
  }
}

export function hasBridge(): boolean {
  return Boolean((globalThis as { studio?: unknown }).studio);
}
