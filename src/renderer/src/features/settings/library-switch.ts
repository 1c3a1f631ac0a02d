/**
 * When the library in use changes (demo mode turned on or off, another folder chosen), the
 * window shows the new one at once: what it knew of the old library's tasks is dropped, Activity
 * and the gallery load again from the new one, and a notice says which library is shown.
 */
import { useEffect } from 'react';
import type { StudioSettings } from '../../../../shared/index.ts';
import { usePlayer } from '../../state/player-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { useFailureList } from '../activity/failure-list.ts';

/** Drops the old library's tasks from the window and loads the new one's. */
export function showLibrary(settings: StudioSettings, fromDemo: boolean): void {
  const studio = useStudio.getState();
  if (studio.appInfo) studio.setAppInfo({ ...studio.appInfo, libraryDir: settings.libraryInUse });
  studio.setLibraryNotice({ dir: settings.libraryInUse, demo: settings.demoLibrary, fromDemo });
  // a song of the old library cannot play from the new one
  usePlayer.getState().close();
  const ui = useUi.getState();
  ui.openDetail(null);
  ui.setSelection([], null);
  useFailureList.getState().reset();
  const tasks = useTasks.getState();
  tasks.byId.clear();
  useTasks.setState((s) => ({ rev: s.rev + 1, activityLoaded: false }));
  // a gallery never opened loads when it is first shown
  if (tasks.gallery.generation > 0) tasks.reloadGallery();
  tasks.loadActivity().catch((err: unknown) => toastError(err));
}

/** Follows the settings: a new library in use is shown at once. */
export function useLibrarySwitch(): void {
  useEffect(
    () =>
      useStudio.subscribe((now, before) => {
        const next = now.settings;
        const previous = before.settings?.libraryInUse;
        if (next && previous && next.libraryInUse !== previous)
          showLibrary(next, before.settings?.demoLibrary ?? false);
      }),
    [],
  );
}
