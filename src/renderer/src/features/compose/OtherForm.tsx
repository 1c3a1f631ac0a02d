/**
 * The Other tab: any other task of the catalog, each offered with its price (or that it has
 * none, and Queue will ask first), with its input as JSON checked as you type against the
 * catalog's rules for that task type, and its media fields as drop targets. Tab indents in the
 * JSON editor; Shift+Tab outdents; Esc then Tab leaves it.
 */
import { type KeyboardEvent, useId, useRef } from 'react';
import { catalogEntry, priceWords as rulePriceWords, type TaskTypeEntry } from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { indentEdit, outdentEdit } from './code-indent.ts';
import { exampleJson, OTHER_ENTRIES } from './compose-model.ts';
import { OtherMediaFields } from './OtherMediaFields.tsx';
import { replaceRange } from './text-insert.ts';
import { useFormProblems } from './use-form-problems.ts';

const MODELS_OFFERED = [...new Set(OTHER_ENTRIES.map((e) => e.modelName))];

/** `$0.01 per task`, or that the service publishes no price. */
export function priceWords(entry: TaskTypeEntry | undefined): string {
  return entry?.price ? rulePriceWords(entry.price) : 'price unknown';
}

export function OtherForm() {
  const id = useId();
  const other = useCompose((s) => s.other);
  const errors = useCompose((s) => s.errors.other);
  const setOther = useCompose((s) => s.setOther);
  const { shown } = useFormProblems('other');
  const escaped = useRef(false);
  const types = OTHER_ENTRIES.filter((e) => e.modelName === other.model);
  const entry = catalogEntry(other.model, other.taskType);
  // main's refusal first; then the JSON's own problem and each key's, as the live check found them
  const jsonProblems = errors.input
    ? [errors.input]
    : Object.entries(shown)
        .filter(([field]) => field === 'input' || field.startsWith('input.'))
        .map(([, message]) => message);

  const chooseModel = (model: string) => {
    const first = OTHER_ENTRIES.find((e) => e.modelName === model);
    const taskType = first?.taskType ?? '';
    setOther({ model, taskType, json: exampleJson({ model, taskType }) });
  };
  const chooseType = (taskType: string) => {
    const untouched = other.json.trim() === '' || other.json === exampleJson(other);
    setOther(untouched ? { taskType, json: exampleJson({ model: other.model, taskType }) } : { taskType });
  };

  /** Tab indents and Shift+Tab outdents, as typing would (undoable); after Esc, Tab leaves. */
  const onJsonKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      escaped.current = true;
      return;
    }
    const plainTab = event.key === 'Tab' && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (!plainTab || escaped.current) {
      escaped.current = false;
      return;
    }
    event.preventDefault();
    const area = event.currentTarget;
    const edit = (event.shiftKey ? outdentEdit : indentEdit)(
      area.value,
      area.selectionStart,
      area.selectionEnd,
    );
    replaceRange(area, edit.start, edit.end, edit.insert, edit.caret, edit.selectionEnd);
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
            data-field="model"
            value={other.model}
            onChange={(event) => chooseModel(event.target.value)}
          >
            {MODELS_OFFERED.map((model) => (
              <option key={model} value={model}>
                {model}
              </option>
            ))}
          </select>
          <FieldMessage id={`${id}-model-message`} error={errors.model ?? shown.model} announce={false} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-type`} className="field-label">
            Task type
          </label>
          <select
            id={`${id}-type`}
            data-field="task_type"
            value={other.taskType}
            aria-describedby={`${id}-price`}
            onChange={(event) => chooseType(event.target.value)}
          >
            {types.map((e) => (
              <option key={e.taskType} value={e.taskType}>
                {e.label} ({e.taskType}) · {priceWords(e)}
              </option>
            ))}
          </select>
          <p id={`${id}-price`} className="field-hint price-line" data-testid="other-price">
            {entry?.price
              ? `Price: ${priceWords(entry)}.`
              : 'Price unknown: the service publishes none for this task type. Queue will ask you to confirm first.'}
          </p>
          <FieldMessage
            id={`${id}-type-message`}
            error={errors.task_type ?? shown.task_type}
            announce={false}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-model-id`} className="field-label">
            Model id <span className="optional">(optional)</span>
          </label>
          <input
            id={`${id}-model-id`}
            type="text"
            data-field="model_id"
            spellCheck={false}
            placeholder={`vendor/${other.model}`}
            value={other.modelId}
            aria-invalid={shown.model_id ? true : undefined}
            aria-describedby={`${id}-model-id-message`}
            onChange={(event) => setOther({ modelId: event.target.value })}
          />
          <FieldMessage
            id={`${id}-model-id-message`}
            error={shown.model_id}
            announce={false}
            hint="Empty: the service's own id for this model (Settings › Advanced). Or write vendor/model."
          />
        </div>
        <button
          type="button"
          className="button button-small"
          onClick={() => setOther({ json: exampleJson(other) })}
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
            data-field="input"
            rows={14}
            spellCheck={false}
            value={other.json}
            aria-invalid={jsonProblems.length > 0 ? true : undefined}
            aria-describedby={`${id}-json-message ${id}-json-keys`}
            onChange={(event) => setOther({ json: event.target.value })}
            onKeyDown={onJsonKeyDown}
            onBlur={() => {
              escaped.current = false;
            }}
          />
          {jsonProblems.length > 0 ? (
            <ul id={`${id}-json-message`} className="field-error json-problems">
              {jsonProblems.map((message) => (
                <li key={message} data-testid="field-error">
                  {message}
                </li>
              ))}
            </ul>
          ) : (
            <p id={`${id}-json-message`} className="field-hint">
              A JSON object with the task's input fields. Media fields take a web address, Base64 or a local
              file path.
            </p>
          )}
          <p id={`${id}-json-keys`} className="field-hint">
            Tab indents, Shift+Tab outdents; press Esc, then Tab, to leave the editor.
          </p>
        </div>
        <OtherMediaFields model={other.model} taskType={other.taskType} />
      </div>
    </div>
  );
}
