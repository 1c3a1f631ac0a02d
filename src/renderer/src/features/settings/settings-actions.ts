/** Saving settings from the Settings view: the new settings replace the old, or the error is shown. */
import type { SettingsUpdate } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { useStudio } from '../../state/studio-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';

export async function updateSettings(patch: SettingsUpdate, done?: string): Promise<boolean> {
  try {
    useStudio.getState().setSettings(await invoke('settings.update', patch));
    if (done) useUi.getState().pushToast('success', done);
    return true;
  } catch (err) {
    toastError(err);
    return false;
  }
}
