/** Settings: key, service, demo mode, concurrency, library folder, theme, budget and costs. */
import { useEffect, useId, useRef, useState } from 'react';
import type { SettingsUpdate, Theme } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { budgetInputText, parseBudgetDollars } from '../../model/money-text.ts';
import { useStudio } from '../../stores/studio-store.ts';
import { toastError, useUi } from '../../stores/ui-store.ts';
import { ApiKeySection } from './ApiKeySection.tsx';
import { CostSummary } from './CostSummary.tsx';

async function update(patch: SettingsUpdate, done?: string): Promise<boolean> {
  try {
    useStudio.getState().setSettings(await invoke('settings.update', patch));
    if (done) useUi.getState().pushToast('success', done);
    return true;
  } catch (err) {
    toastError(err);
    return false;
  }
}

function ServiceSection() {
  const id = useId();
  const settings = useStudio((s) => s.settings);
  const status = useStudio((s) => s.status);
  const [baseUrl, setBaseUrl] = useState(settings?.baseUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const urlRef = useRef<HTMLInputElement>(null);
  useFocusRequest('base-url', urlRef);
  useEffect(() => setBaseUrl(settings?.baseUrl ?? ''), [settings?.baseUrl]);
  if (!settings) return null;
  const saveUrl = async () => {
    try {
      const u = new URL(baseUrl.trim());
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('x');
    } catch {
      setError('Enter an http(s) URL, e.g. https://api.example.com');
      return;
    }
    setError(null);
    await update({ baseUrl: baseUrl.trim() }, 'Service address saved.');
  };
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Service</h2>
      <div className="switch-row">
        <input
          id={`${id}-demo`}
          type="checkbox"
          role="switch"
          className="switch"
          checked={settings.demoMode}
          aria-checked={settings.demoMode}
          aria-describedby={`${id}-demo-hint`}
          onChange={(event) => void update({ demoMode: event.target.checked })}
        />
        <label htmlFor={`${id}-demo`}>Demo mode (built-in sandbox)</label>
      </div>
      <p id={`${id}-demo-hint`} className="field-hint">
        Tasks run on a local sandbox that makes sample results; nothing is billed.
        {status
          ? ` Now sending to: ${status.service === 'sandbox' ? 'the demo sandbox' : status.service === 'remote' ? 'the service' : 'nowhere yet'}.`
          : ''}
      </p>
      {status?.authProblem ? (
        <p className="field-error" role="alert">
          {status.authProblem}
        </p>
      ) : null}
      <form
        className="inline-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void saveUrl();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-url`} className="field-label">
            Service base URL
          </label>
          <input
            ref={urlRef}
            id={`${id}-url`}
            type="url"
            placeholder="https://api.example.com"
            value={baseUrl}
            aria-describedby={`${id}-url-msg`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setBaseUrl(event.target.value)}
          />
          <FieldMessage
            id={`${id}-url-msg`}
            error={error}
            hint="Used when a key is set and demo mode is off."
          />
        </div>
        <button type="submit" className="button" disabled={baseUrl.trim() === settings.baseUrl}>
          Save URL
        </button>
      </form>
      <ConcurrencyField />
    </section>
  );
}

function ConcurrencyField() {
  const id = useId();
  const value = useStudio((s) => s.settings?.maxActiveRemote ?? 1);
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > 50) {
      setError('A whole number from 1 to 50');
      return;
    }
    setError(null);
    if (n !== value)
      void update({ maxActiveRemote: n }, `Up to ${n} task${n === 1 ? '' : 's'} at the service at once.`);
  };
  return (
    <div className="field">
      <label htmlFor={`${id}-conc`} className="field-label">
        Tasks at the service at once
      </label>
      <input
        id={`${id}-conc`}
        type="number"
        className="input-number"
        min={1}
        max={50}
        value={text}
        aria-describedby={`${id}-conc-hint`}
        aria-invalid={error ? true : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      <FieldMessage
        id={`${id}-conc-hint`}
        error={error}
        hint="1–50. Keep it at or under your plan's concurrency limit."
      />
    </div>
  );
}

function LibrarySection() {
  const id = useId();
  const libraryDir = useStudio((s) => s.settings?.libraryDir ?? '');
  const choose = async () => {
    try {
      const dir = await invoke('settings.chooseLibraryDir', {});
      if (dir) await update({ libraryDir: dir }, `Library folder: ${dir}`);
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Library folder</h2>
      <p className="path" data-testid="library-dir">
        <code>{libraryDir || '—'}</code>
      </p>
      <button type="button" className="button" onClick={() => void choose()}>
        Choose folder…
      </button>
    </section>
  );
}

const THEMES: { value: Theme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

function ThemeSection() {
  const id = useId();
  const theme = useStudio((s) => s.settings?.theme ?? 'system');
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Appearance</h2>
      <fieldset className="radio-group">
        <legend>Theme</legend>
        {THEMES.map((t) => (
          <label key={t.value} className="radio">
            <input
              type="radio"
              name={`${id}-theme`}
              value={t.value}
              checked={theme === t.value}
              onChange={() => void update({ theme: t.value })}
            />
            {t.label}
          </label>
        ))}
      </fieldset>
    </section>
  );
}

function BudgetSection() {
  const id = useId();
  const budgetMicros = useStudio((s) => s.settings?.budgetMicros ?? null);
  const [text, setText] = useState(budgetInputText(budgetMicros));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(budgetInputText(budgetMicros)), [budgetMicros]);
  const save = async () => {
    const parsed = parseBudgetDollars(text);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(null);
    await update(
      { budgetMicros: parsed.micros },
      parsed.micros === null ? 'Budget removed.' : 'Budget saved.',
    );
  };
  return (
    <section className="settings-section" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Budget</h2>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <div className="field">
          <label htmlFor={`${id}-budget`} className="field-label">
            Budget in dollars
          </label>
          <input
            id={`${id}-budget`}
            type="text"
            inputMode="decimal"
            value={text}
            placeholder="No budget"
            aria-describedby={`${id}-msg`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          <FieldMessage
            id={`${id}-msg`}
            error={error}
            hint="Tasks that would go over it are refused. Leave empty for none."
          />
        </div>
        <button type="submit" className="button">
          Save budget
        </button>
      </form>
      <CostSummary budgetMicros={budgetMicros} />
    </section>
  );
}

export function SettingsView() {
  const settings = useStudio((s) => s.settings);
  const info = useStudio((s) => s.appInfo);
  return (
    <div className="view settings-view">
      <header className="view-header">
        <h1>Settings</h1>
        {info ? (
          <p className="view-subtitle">
            Media Task Studio {info.version} · {info.platform}
          </p>
        ) : null}
      </header>
      {settings ? (
        <div className="settings-grid">
          <ApiKeySection />
          <ServiceSection />
          <BudgetSection />
          <LibrarySection />
          <ThemeSection />
        </div>
      ) : (
        <p className="muted">Loading settings…</p>
      )}
    </div>
  );
}
