/**
 * The API key: masked entry, whether one is set (never the key itself), clear, and the addresses
 * it waits to be confirmed for. The questions that guard the key (storing it without a keyring,
 * sending it to new addresses) are asked by main in native dialogs: the page only asks main to act.
 */

import { useId, useRef, useState } from 'react';
import { invoke } from '../../bridge.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { ProblemMessage } from '../../components/ProblemMessage.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { errorText, toStudioError } from '../../model/studio-error.ts';
import { useStudio } from '../../state/studio-state.ts';
import { toastError, useUi } from '../../state/ui-state.ts';
import { checkService, refreshAccount } from '../account/account-actions.ts';
import { ServiceCheckLine } from './ServiceCheckLine.tsx';

export function ApiKeySection() {
  const id = useId();
  const settings = useStudio((s) => s.settings);
  const setSettings = useStudio((s) => s.setSettings);
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [askRemove, setAskRemove] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  useFocusRequest('api-key', inputRef);

  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      // where there is no keyring, main asks the user in a native dialog before storing it
      const next = await invoke('settings.setApiKey', { key: key.trim() });
      setSettings(next);
      setKey('');
      // another key may be another account: its balance says whether the service takes the key;
      // the success notice only when it did (a refusal or no answer is said on the check's line)
      void checkService('key').then((check) => {
        if (check === null || check.outcome === 'accepted') {
          useUi.getState().pushToast('success', 'API key saved.');
        }
      });
    } catch (err) {
      // a key the service refused was not stored: what was in use stays, and the field keeps
      // what was typed (the message says what happened and what to do, once)
      setError(errorText(err));
      if (toStudioError(err).kind === 'unauthorized') {
        useStudio.getState().setServiceCheck(null);
        inputRef.current?.focus();
      }
    } finally {
      setSaving(false);
    }
  };

  /** Main shows every address in a native dialog and ties the key to them when the user agrees. */
  const confirmAddresses = async () => {
    setConfirming(true);
    try {
      setSettings(await invoke('settings.confirmKeyAddresses', {}));
      void checkService('key');
    } catch (err) {
      toastError(err);
    } finally {
      setConfirming(false);
    }
  };

  const clear = async () => {
    try {
      setSettings(await invoke('settings.clearApiKey', {}));
      useStudio.getState().setServiceCheck(null);
      void refreshAccount();
      useUi.getState().pushToast('success', 'API key removed.');
    } catch (err) {
      toastError(err);
    }
  };

  const hasKey = settings?.hasApiKey ?? false;
  const tooShort = key.trim().length > 0 && key.trim().length < 8;
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>API key</h2>
      <p className="field-hint" data-testid="key-source">
        {settings?.serviceProfile === 'custom'
          ? 'A key comes from your account page at the service chosen under Service.'
          : 'A key comes from your account page at PiAPI (piapi.ai), the hosted service.'}
      </p>
      <p className="key-status" data-testid="key-status">
        {hasKey ? 'Saved: a key is set' : 'No key'}
        {hasKey && settings?.keyStorage === 'weak' ? ' (stored without OS encryption)' : ''}
      </p>
      <ProblemMessage problem={settings?.keyProblem} testId="key-problem" />
      {hasKey && settings?.keyAddressesToConfirm ? (
        <div className="key-addresses" data-testid="key-addresses">
          <p>The key would be sent to:</p>
          <ul>
            {settings.keyAddressesToConfirm.map((url) => (
              <li key={url}>{url}</li>
            ))}
          </ul>
          <button
            type="button"
            className="button"
            disabled={confirming}
            onClick={() => void confirmAddresses()}
          >
            {confirming ? 'Waiting for your answer…' : 'Confirm these addresses…'}
          </button>
        </div>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (key.trim().length >= 8) void save();
        }}
      >
        <div className="field">
          {/* named by the section's heading (no second "API key" above the field) */}
          <input
            ref={inputRef}
            id={`${id}-key`}
            aria-label={hasKey ? 'Replace API key' : 'API key'}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            placeholder={hasKey ? '•••••••• (hidden)' : 'Paste your key'}
            aria-describedby={`${id}-msg`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setKey(event.target.value)}
          />
          <FieldMessage
            id={`${id}-msg`}
            error={error ?? (tooShort ? 'A key has at least 8 characters' : null)}
            hint={
              settings?.keyStorage === 'weak'
                ? 'This system has no keyring: the app will ask you before storing the key without encryption. The app never shows it again.'
                : 'Kept encrypted by your operating system; the app never shows it again.'
            }
          />
        </div>
        <button type="submit" className="button button-primary" disabled={saving || key.trim().length < 8}>
          {saving ? 'Saving…' : 'Save key'}
        </button>
      </form>
      <ServiceCheckLine what="key" />
      {hasKey ? (
        <div className="section-actions">
          <button type="button" className="button" onClick={() => setAskRemove(true)}>
            Remove key
          </button>
        </div>
      ) : null}
      {askRemove ? (
        <ConfirmDialog
          title="Remove the API key?"
          message={
            <p>
              The key will be deleted from this computer. Tasks will stay queued until you add a key again or
              use the demo.
            </p>
          }
          confirmLabel="Remove key"
          danger
          onCancel={() => setAskRemove(false)}
          onConfirm={() => {
            setAskRemove(false);
            void clear();
          }}
        />
      ) : null}
    </section>
  );
}
