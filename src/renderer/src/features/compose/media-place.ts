/** Where the page finds library files: a pure read of the app's state (no DOM). */
import { useStudio } from '../../state/studio-state.ts';
import type { MediaPlace } from './compose-slots.ts';

/**
 * Where library files are and how the page loads them: the library in use (demo mode's own, not
 * the folder the user chose), so a demo task's input is a library file with its preview.
 */
export function mediaPlace(): MediaPlace {
  const info = useStudio.getState().appInfo;
  const settings = useStudio.getState().settings;
  return {
    libraryDir: settings?.libraryInUse || info?.libraryDir || '',
    mediaBaseUrl: info?.mediaBaseUrl ?? '',
  };
}
