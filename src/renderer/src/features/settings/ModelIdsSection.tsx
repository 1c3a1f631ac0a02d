/**
 * Settings › Service › Advanced: the model id each catalog entry (model and task type) is sent
 * with, and an override per entry (e.g. image edit as `Qubico/qwen-edit-image` where a service
 * names it so). Demo mode ignores the overrides: the sandbox has its own ids.
 */
import { useId, useState } from 'react';
import {
  defaultModelIdOf,
  HOSTED_SERVICE,
  hostedProfile,
  modelIdProblem,
  type ServiceProfile,
  TASK_TYPES,
  type TaskTypeEntry,
} from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { updateSettings } from './settings-actions.ts';

const OFFERED = TASK_TYPES.filter((e) => !e.sandboxOnly);

function ModelIdRow({
  entry,
  defaultId,
  override,
  onSave,
}: {
  entry: TaskTypeEntry;
  defaultId: string;
  override: string;
  onSave: (entry: TaskTypeEntry, id: string) => Promise<void>;
}) {
  const id = useId();
  const [text, setText] = useState(override);
  const [error, setError] = useState<string | null>(null);
  const commit = async () => {
    const value = text.trim();
    if (value === override) return;
    const problem = value === '' ? null : modelIdProblem(value);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    await onSave(entry, value);
  };
  return (
    <div className="field model-id-row">
      <label htmlFor={`${id}-model`} className="field-label">
        {entry.label} <span className="muted">({entry.taskType})</span>
      </label>
      <input
        id={`${id}-model`}
        type="text"
        spellCheck={false}
        placeholder={defaultId}
        value={text}
        aria-describedby={`${id}-msg`}
        aria-invalid={error ? true : undefined}
        data-testid={`model-id-${entry.id}`}
        onChange={(event) => setText(event.target.value)}
        onBlur={() => void commit()}
        onKeyDown={(event) => {
          if (event.key === 'Enter') void commit();
        }}
      />
      <FieldMessage id={`${id}-msg`} error={error} hint={override ? `Default: ${defaultId}` : null} />
    </div>
  );
}

export function ModelIdsSection() {
  const id = useId();
  const settings = useStudio((s) => s.settings);
  if (!settings) return null;
  const overrides = settings.modelOverrides;
  // the ids the real service would get: the hosted profile's vendor, or the custom one
  const profile: ServiceProfile =
    settings.serviceProfile === 'hosted'
      ? hostedProfile()
      : { ...hostedProfile(), name: 'custom', vendor: settings.vendor || HOSTED_SERVICE.vendor };
  const save = async (entry: TaskTypeEntry, modelId: string) => {
    const next = { ...overrides };
    if (modelId === '') delete next[entry.id];
    else next[entry.id] = modelId;
    const what = `${entry.label} (${entry.taskType})`;
    await updateSettings(
      { modelOverrides: next },
      modelId === '' ? `${what} uses its default model id again.` : `${what} is sent as ${modelId}.`,
    );
  };
  return (
    <details className="advanced" aria-labelledby={`${id}-s`}>
      <summary id={`${id}-s`}>Advanced: model ids</summary>
      <p className="field-hint">
        Each model and task type is sent as vendor/model. Write another id to change it (empty: the default).
        {settings.demoMode ? ' Demo mode uses the sandbox’s own ids.' : ''}
      </p>
      {OFFERED.map((entry) => (
        <ModelIdRow
          key={`${entry.id}:${overrides[entry.id] ?? ''}`}
          entry={entry}
          defaultId={defaultModelIdOf(entry, { ...profile, modelOverrides: {} })}
          override={overrides[entry.id] ?? ''}
          onSave={save}
        />
      ))}
    </details>
  );
}
