/**
 * Connects the window state (src/renderer/src/state) to main: loads app info, settings, engine
 * status and the active tasks once, then follows `tasks.changed`, `engine.status`,
 * `settings.changed` and `menu.command`.
 */
import { useEffect } from 'react';
import { invoke, on } from '../bridge.ts';
import { refreshAccount, refreshAccountAfterFinishes } from '../features/account/account-actions.ts';
import { announceTaskNews, taskNewsOf } from '../features/activity/task-notices.ts';
import type { ComposeTab } from '../features/compose/compose-model.ts';
import { startSavedForms } from '../features/compose/saved-forms.ts';
import { watchRetentionRuns } from '../features/settings/retention-run.ts';
import { useCompose } from '../state/compose-state.ts';
import { useStudio } from '../state/studio-state.ts';
import { useTasks } from '../state/tasks-state.ts';
import { type FocusTarget, useUi, type View } from '../state/ui-state.ts';

async function loadStudio(): Promise<void> {
  const studio = useStudio.getState();
  try {
    const [info, settings, status] = await Promise.all([
      invoke('app.info', {}),
      invoke('settings.get', {}),
      invoke('engine.status', {}),
    ]);
    studio.setAppInfo(info);
    studio.setSettings(settings);
    studio.setStatus(status);
    studio.setBootError(null);
    void refreshAccount();
    // the composer's forms kept last time (read once the library folder is known)
    void startSavedForms();
  } catch (err) {
    studio.setBootError(err instanceof Error ? err.message : String(err));
  }
  try {
    await useTasks.getState().loadActivity();
  } catch (err) {
    useUi
      .getState()
      .pushToast('error', `Could not load active tasks: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function openCompose(tab: ComposeTab, focus: FocusTarget): void {
  useCompose.getState().setTab(tab);
  useUi.getState().navigate('compose');
  useUi.getState().requestFocus(focus);
}

function openView(view: View): void {
  useUi.getState().navigate(view);
  useUi.getState().requestFocus('main');
}

/** What each menu command does. Unknown commands are ignored. */
export function runMenuCommand(command: string): void {
  switch (command) {
    case 'new-song':
      openCompose('song', 'style-prompt');
      break;
    case 'face-swap':
      openCompose('faceSwap', 'face-target');
      break;
    case 'image-edit':
      openCompose('imageEdit', 'edit-prompt');
      break;
    case 'compose':
      openView('compose');
      break;
    case 'activity':
      openView('activity');
      break;
    case 'library':
      openView('library');
      break;
    case 'settings':
    case 'open-settings':
      openView('settings');
      break;
    case 'focus-search':
      useUi.getState().navigate('library');
      useUi.getState().requestFocus('search');
      break;
    default:
      break;
  }
}

export function useTaskEvents(): void {
  useEffect(() => {
    const offs = [
      on('tasks.changed', (changes) => {
        // what ended is read against the states known before these changes
        const news = taskNewsOf(changes);
        useTasks.getState().applyChanges(changes);
        refreshAccountAfterFinishes(changes);
        announceTaskNews(news);
      }),
      on('engine.status', (status) => useStudio.getState().setStatus(status)),
      // the balance follows the account in use by itself (ensureAccountFor in AccountBalance)
      on('settings.changed', (settings) => useStudio.getState().setSettings(settings)),
      on('menu.command', (command) => runMenuCommand(command)),
      // retention's run, said when it ends (with Undo) wherever the user is
      watchRetentionRuns(),
    ];
    void loadStudio();
    return () => {
      for (const off of offs) off();
    };
  }, []);
}
