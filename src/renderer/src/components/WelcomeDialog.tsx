/**
 * First run: try the demo at once, or go and set an API key. Either choice ends the first run;
 * Escape only puts the question off until the next start.
 */
import { useState } from 'react';
import { invoke } from '../bridge.ts';
import { useCompose } from '../state/compose-state.ts';
import { useStudio } from '../state/studio-state.ts';
import { toastError, useUi } from '../state/ui-state.ts';
import { Dialog } from './Dialog.tsx';

export function WelcomeDialog() {
  const firstRun = useStudio((s) => s.settings?.firstRun ?? false);
  const [busy, setBusy] = useState(false);
  const [putOff, setPutOff] = useState(false);
  if (!firstRun || putOff) return null;

  const choose = async (demo: boolean) => {
    setBusy(true);
    try {
      const settings = await invoke(
        'settings.update',
        demo ? { demoMode: true, firstRun: false } : { firstRun: false },
      );
      useStudio.getState().setSettings(settings);
      if (demo) {
        // ready to type: the song form's first field
        useCompose.getState().setTab('song');
        useUi.getState().navigate('compose');
        useUi.getState().requestFocus('style-prompt');
        useUi
          .getState()
          .pushToast('success', 'Demo mode is on: queue anything and watch it run on the built-in sandbox.');
      } else {
        useUi.getState().navigate('settings');
        useUi.getState().requestFocus('api-key');
      }
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      title="Welcome to Media Task Studio"
      testId="welcome-dialog"
      onClose={() => setPutOff(true)}
      actions={
        <>
          <button type="button" className="button" disabled={busy} onClick={() => void choose(false)}>
            Use my API key
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => void choose(true)}
            data-autofocus
          >
            Try the demo (built-in sandbox)
          </button>
        </>
      }
    >
      <p>
        Make songs, face swaps, image edits and more with a generative media service. Everything you make is
        kept in your library.
      </p>
      <p>
        Try it right away with the built-in sandbox (sample results, nothing billed), or add the API key of
        your account to use the real service.
      </p>
    </Dialog>
  );
}
