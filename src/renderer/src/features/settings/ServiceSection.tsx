/**
 * Settings › Service: demo mode, which service a stored key is used with (the hosted service,
 * or a custom address and vendor), the balance there, and how many tasks run at once.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { HOSTED_SERVICE, readBaseUrl, SANDBOX_VENDOR, type ServiceChoice } from '../../../../shared/index.ts';
import { ProblemMessage } from '../../components/ProblemMessage.tsx';
import { SwitchField } from '../../components/SwitchField.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { asSentence } from '../../model/studio-error.ts';
import { useStudio } from '../../state/studio-state.ts';
import { AccountBalance } from '../account/AccountBalance.tsx';
import { checkService } from '../account/account-actions.ts';
import { ConcurrencyField } from './ConcurrencyField.tsx';
import { ModelIdsSection } from './ModelIdsSection.tsx';
import { ServiceCheckLine } from './ServiceCheckLine.tsx';
import { updateSettings } from './settings-actions.ts';

function nowSendingTo(service: ServiceChoice, hosted: boolean, address: string | null): string {
  if (service === 'sandbox') return 'the demo sandbox';
  if (service === 'remote')
    return hosted
      ? `the hosted service (${HOSTED_SERVICE.baseUrl})`
      : `your custom service${address ? ` (${address})` : ''}`;
  return 'nowhere yet';
}

/** Saves a change of service, then tests it with the balance call when it was saved. */
async function saveService(patch: Parameters<typeof updateSettings>[0], done?: string): Promise<boolean> {
  const saved = await updateSettings(patch, done);
  if (saved) void checkService('service');
  return saved;
}

/**
 * The custom service's address, vendor and upload endpoint. Choosing "A custom address" only shows
 * them (`pending`: the queue keeps going to the hosted service); saving them makes it the service.
 */
function CustomServiceFields({ pending }: { pending: boolean }) {
  const settings = useStudio((s) => s.settings);
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [vendor, setVendor] = useState(settings?.vendor ?? '');
  const [uploadUrl, setUploadUrl] = useState(settings?.uploadUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const urlRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useFocusRequest('base-url', urlRef);
  useEffect(() => setBaseUrl(settings?.baseUrl ?? ''), [settings?.baseUrl]);
  useEffect(() => setVendor(settings?.vendor ?? ''), [settings?.vendor]);
  useEffect(() => setUploadUrl(settings?.uploadUrl ?? ''), [settings?.uploadUrl]);
  if (!settings) return null;
  const save = async () => {
    let url: string;
    try {
      const reading = readBaseUrl(baseUrl);
      url = reading.url;
      setNote(reading.note);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    setError(null);
    const saved = await saveService(
      { serviceProfile: 'custom', baseUrl: url, vendor: vendor.trim(), uploadUrl: uploadUrl.trim() },
      'Custom service saved.',
    );
    if (saved) setBaseUrl(url);
  };
  return (
    <form
      className="stacked-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {pending ? (
        <p className="muted" data-testid="custom-pending">
          Tasks keep going where they go now until you save the custom service.
        </p>
      ) : null}
      <TextField
        label="Service base URL"
        type="url"
        placeholder="https://api.example.com"
        value={baseUrl}
        error={error}
        hint={note ?? 'The address before /api/v1 (pasting the whole …/api/v1 is fine).'}
        inputRef={urlRef}
        onChange={setBaseUrl}
      />
      <TextField
        label="Vendor"
        spellCheck={false}
        value={vendor}
        hint={`Model ids are vendor/model: ${HOSTED_SERVICE.vendor} for the hosted service, ${SANDBOX_VENDOR} as the spec writes it.`}
        onChange={setVendor}
      />
      <TextField
        label="Upload endpoint"
        optional
        type="url"
        placeholder="none: local files are sent inside the request"
        value={uploadUrl}
        onChange={setUploadUrl}
      />
      <button type="submit" className="button">
        Save custom service
      </button>
    </form>
  );
}

export function ServiceSection() {
  const id = useId();
  const settings = useStudio((s) => s.settings);
  const status = useStudio((s) => s.status);
  // "A custom address" chosen but not saved yet: its fields show, the service stays as it is
  const [choosingCustom, setChoosingCustom] = useState(false);
  if (!settings) return null;
  const hosted = settings.serviceProfile === 'hosted';
  const showCustom = !hosted || choosingCustom;
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Service</h2>
      <SwitchField
        label="Demo mode (built-in sandbox)"
        hint="Demo tasks run on a local sandbox that makes sample results; nothing is billed. They are kept in a library of their own: turn demo mode off to see your library, on again to see the demo results."
        checked={settings.demoMode}
        onChange={(on) => void (on ? updateSettings({ demoMode: true }) : saveService({ demoMode: false }))}
      />
      {status ? (
        <p className="service-now" data-testid="service-now" aria-live="polite">
          Now sending to: <strong>{nowSendingTo(status.service, hosted, status.serviceAddress)}</strong>.
        </p>
      ) : null}
      <ProblemMessage problem={status?.authProblem ? asSentence(status.authProblem) : null} />
      <fieldset className="radio-group radio-group-stacked">
        <legend>With your API key, use</legend>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-profile`}
            value="hosted"
            checked={!showCustom}
            onChange={() => {
              setChoosingCustom(false);
              if (!hosted) void saveService({ serviceProfile: 'hosted' }, 'Using the hosted service.');
            }}
          />
          The hosted service <span className="muted">({HOSTED_SERVICE.baseUrl})</span>
        </label>
        <label className="radio">
          <input
            type="radio"
            name={`${id}-profile`}
            value="custom"
            checked={showCustom}
            onChange={() => setChoosingCustom(true)}
          />
          A custom address
        </label>
      </fieldset>
      {showCustom ? <CustomServiceFields pending={hosted} /> : null}
      <ServiceCheckLine what="service" />
      <AccountBalance />
      <ConcurrencyField />
      <ModelIdsSection />
    </section>
  );
}
