/** Settings: key, service, demo mode, concurrency, model ids, library folder, theme, budget and costs. */
import { useEffect, useId, useState } from 'react';
import type { Theme } from '../../../../shared/index.ts';
import { invoke } from '../../bridge.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { budgetInputText, parseBudgetDollars } from '../../model/money-text.ts';
import { useStudio } from '../../state/studio-state.ts';
import { toastError } from '../../state/ui-state.ts';
import { ApiKeySection } from './ApiKeySection.tsx';
import { CostSummary } from './CostSummary.tsx';
import { NotificationSection } from './NotificationSection.tsx';
import { RetentionSection } from './RetentionSection.tsx';
import { ServiceSection } from './ServiceSection.tsx';
import { updateSettings as update } from './settings-actions.ts';
import { UnknownPriceTypes } from './UnknownPriceTypes.tsx';

function LibrarySection() {
  const id = useId();
  const libraryDir = useStudio((s) => s.settings?.libraryDir ?? '');
  const inUse = useStudio((s) => s.settings?.libraryInUse ?? '');
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
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
      {demo ? (
        <>
          <p>Demo mode keeps its sample results in a library of its own, shown now:</p>
          <p className="path" data-testid="library-in-use">
            <code>{inUse}</code>
          </p>
          <p>Your library, shown again when demo mode is off:</p>
        </>
      ) : null}
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
      <UnknownPriceTypes />
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
          <RetentionSection />
          <NotificationSection />
          <ThemeSection />
        </div>
      ) : (
        <p className="muted">Loading settings…</p>
      )}
    </div>
  );
}
