/** The Other tab: any other task of the catalog, with its input as JSON checked as you type. */
import { useId, useMemo } from 'react';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { checkJsonObject } from '../../model/json-input.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { exampleJson, OTHER_ENTRIES } from './compose-model.ts';

const MODELS_OFFERED = [...new Set(OTHER_ENTRIES.map((e) => e.modelName))];

export function OtherForm() {
  const id = useId();
  const other = useCompose((s) => s.other);
  const errors = useCompose((s) => s.errors.other);
  const setOther = useCompose((s) => s.setOther);
  const types = OTHER_ENTRIES.filter((e) => e.modelName === other.model);
  const check = useMemo(() => checkJsonObject(other.json, other.taskType), [other.json, other.taskType]);
  const jsonError = errors.input ?? (check.ok ? null : check.message);

  const chooseModel = (model: string) => {
    const first = OTHER_ENTRIES.find((e) => e.modelName === model);
    const taskType = first?.taskType ?? '';
    setOther({ model, taskType, json: exampleJson(taskType) });
  };
  const chooseType = (taskType: string) => {
    const untouched = other.json.trim() === '' || other.json === exampleJson(other.taskType);
    setOther(untouched ? { taskType, json: exampleJson(taskType) } : { taskType });
  };

  return (
    <div className="form-grid form-grid-side-first">
      <div className="form-side">
        <div className="field">
          <label htmlFor={`${id}-model`} className="field-label">
            Model
          </label>
          <select
            id={`${id}-model`}
            value={other.model}
            onChange={(event) => chooseModel(event.target.value)}
          >
            {MODELS_OFFERED.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
          <FieldMessage id={`${id}-model-message`} error={errors.model} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`} className="field-label">
            Task type
          </label>
          <select
            id={`${id}-type`}
            value={other.taskType}
            onChange={(event) => chooseType(event.target.value)}
          >
            {types.map((entry) => (
              <option key={entry.taskType} value={entry.taskType}>
                {entry.label} ({entry.taskType})
              </option>
            ))}
          </select>
          <FieldMessage id={`${id}-type-message`} error={errors.task_type} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-model-id`} className="field-label">
            Model id (optional)
          </label>
          <input
            id={`${id}-model-id`}
            type="text"
            spellCheck={false}
            placeholder={`vendor/${other.model}`}
            value={other.modelId}
            aria-describedby={`${id}-model-id-message`}
            onChange={(event) => setOther({ modelId: event.target.value })}
          />
          <FieldMessage
            id={`${id}-model-id-message`}
            hint="Empty: the service's own id for this model (Settings › Advanced). Or write vendor/model."
          />
        </div>
        <button
          type="button"
          className="button button-small"
          onClick={() => setOther({ json: exampleJson(other.taskType) })}
        >
          Insert example input
        </button>
      </div>
      <div className="form-main">
        <div className="field">
          <label htmlFor={`${id}-json`} className="field-label">
            Input (JSON)
          </label>
          <textarea
            id={`${id}-json`}
            className="code-input"
            rows={14}
            spellCheck={false}
            value={other.json}
            aria-invalid={jsonError ? true : undefined}
            aria-describedby={`${id}-json-message`}
            onChange={(event) => setOther({ json: event.target.value })}
          />
          <FieldMessage
            id={`${id}-json-message`}
            error={jsonError}
            hint="A JSON object with the task's input fields. Media fields take a URL, Base64 or a local file path."
          />
        </div>
      </div>
    </div>
  );
}
