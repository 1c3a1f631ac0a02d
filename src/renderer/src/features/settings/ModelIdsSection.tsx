/**
 * Settings › Service › Advanced: the model id each task type is sent with, and an override per
 * type (e.g. image edit as `Qubico/qwen-edit-image` where a service names it so). Demo mode
 * ignores the overrides: the sandbox has its own ids.
 */
import { useId, useState } from 'react';
import {
  defaultModelIdOf,
  HOSTED_SERVICE,
  hostedProfile,
  modelIdProblem,
  type ServiceProfile,
  TASK_TYPES,
} from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { updateSettings } from './settings-actions.ts';

const OFFERED = TASK_TYPES.filter((e) => !e.sandboxOnly);

function ModelIdRow({
  taskType,
  label,
  defaultId,
  override,
  onSave,
}: {
  taskType: string;
  label: string;
  defaultId: string;
  override: string;
  onSave: (taskType: string, id: string) => Promise<void>;
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
    await onSave(taskType, value);
  };
  return (
    <div className="field model-id-row">
      <label htmlFor={`${id}-model`} className="field-label">
        {label} <span className="muted">({taskType})</span>
      </label>
      <input
        id={`${id}-model`}
        type="text"
        spellCheck={false}
        placeholder={defaultId}
        value={text}
        aria-describedby={`${id}-msg`}
        aria-invalid={error ? true : undefined}
        data-testid={`model-id-${taskType}`}
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
  const save = async (taskType: string, modelId: string) => {
    const next = { ...overrides };
    if (modelId === '') delete next[taskType];
    else next[taskType] = modelId;
    await updateSettings(
      { modelOverrides: next },
      modelId === '' ? `${taskType} uses its default model id again.` : `${taskType} is sent as ${modelId}.`,
    );
  };
  return (
    <details className="advanced" aria-labelledby={`${id}-s`}>
      <summary id={`${id}-s`}>Advanced: model ids</summary>
      <p className="field-hint">
        Each task type is sent as vendor/model. Write another id to change it (empty: the default).
        {settings.demoMode ? ' Demo mode uses the sandbox’s own ids.' : ''}
      </p>
      {OFFERED.map((entry) => (
        <ModelIdRow
          key={`${entry.taskType}:${overrides[entry.taskType] ?? ''}`}
          taskType={entry.taskType}
          label={entry.label}
          defaultId={defaultModelIdOf(entry.taskType, { ...profile, modelOverrides: {} }) ?? ''}
          override={overrides[entry.taskType] ?? ''}
          onSave={save}
        />
      ))}
    </details>
  );
}
