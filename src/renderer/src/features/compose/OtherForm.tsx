/**
 * The Other tab: any other entry of the catalog, chosen by model (grouped by what it makes) and
 * task type, each offered with its price (or that it has none, and Queue will ask first). Its
 * input is the generic form of the entry (its fields as the catalog declares them), or, with
 * "Edit as JSON", the same values in the JSON editor; a pair the catalog does not know (a re-run
 * of one) has only the JSON editor. Both are checked as you type against the entry's rules.
 */
import { useId } from 'react';
import {
  catalogEntry,
  type InputMediaKind,
  mediaFieldsOfRules,
  mediaKind,
  priceWords as rulePriceWords,
  type TaskTypeEntry,
} from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { CatalogFields, splitFields } from './catalog-form/CatalogFields.tsx';
import { type FormField, formFields, jsonWith, textOf, valuesOfJson } from './catalog-form/form-fields.ts';
import { exampleJson, OTHER_ENTRIES } from './compose-model.ts';
import { OtherJsonEditor } from './OtherJsonEditor.tsx';
import { MediaKey } from './OtherMediaFields.tsx';
import { useFormProblems } from './use-form-problems.ts';

/** The models offered, grouped by the kind of what their entries make. */
const MODEL_GROUPS = [...new Set(OTHER_ENTRIES.map((e) => e.outputKind))].map((kind) => ({
  kind,
  models: [...new Set(OTHER_ENTRIES.filter((e) => e.outputKind === kind).map((e) => e.modelName))],
}));

/** `$0.01 per task`, or that the service publishes no price; a price by size for the size in `input`. */
export function priceWords(entry: TaskTypeEntry | undefined, input: Record<string, unknown> = {}): string {
  return entry?.price ? rulePriceWords(entry.price, input) : 'price unknown';
}

function groupName(kind: InputMediaKind | TaskTypeEntry['outputKind']): string {
  return `Make ${mediaKind(kind).label}s`;
}

/** A media field of the form: its web address or path, and a drop target that fills it. */
function MediaField({
  entry,
  field,
  error,
}: {
  entry: TaskTypeEntry;
  field: FormField;
  error: string | null;
}) {
  const value = useCompose((s) => valuesOfJson(s.other.json)?.[field.name]);
  const setOther = useCompose((s) => s.setOther);
  const rule = mediaFieldsOfRules(entry.input).find((m) => m.field === field.name);
  if (!rule) return null;
  const asked = mediaKind(rule.kind).words.asked;
  return (
    <div className="media-field" data-testid="form-media-field" data-key={field.name}>
      <TextField
        label={field.rule.label}
        field={`input.${field.name}`}
        optional={!field.rule.required}
        value={textOf(value)}
        placeholder="https://… or a file path"
        spellCheck={false}
        hint={field.rule.help ?? `A web address, a file path or Base64 of ${asked}.`}
        error={error}
        announceError={false}
        onChange={(text) => {
          const json = jsonWith(useCompose.getState().other.json, { [field.name]: text });
          if (json !== null) setOther({ json });
        }}
      />
      <MediaKey rule={rule} />
    </div>
  );
}

function EntryForm({ entry, shown }: { entry: TaskTypeEntry; shown: Record<string, string> }) {
  const json = useCompose((s) => s.other.json);
  const setOther = useCompose((s) => s.setOther);
  const values = valuesOfJson(json.trim() === '' ? '{}' : json);
  if (!values) {
    return (
      <div className="field" data-testid="catalog-form">
        <p className="field-error">
          The input is not a JSON object the form can show: {shown.input ?? 'fix it in the JSON editor'}.
        </p>
        <button type="button" className="button button-small" onClick={() => setOther({ view: 'json' })}>
          Edit as JSON
        </button>
      </div>
    );
  }
  const { main, side } = splitFields(formFields(entry));
  const common = {
    valueOf: (name: string) => values[name],
    set: (patch: Record<string, unknown>) => {
      const next = jsonWith(useCompose.getState().other.json, patch);
      if (next !== null) setOther({ json: next });
    },
    message: (name: string) => shown[`input.${name}`] ?? null,
    dataField: (name: string) => `input.${name}`,
    media: (field: FormField, error: string | null) => (
      <MediaField entry={entry} field={field} error={error} />
    ),
    keyPrefix: entry.id,
  };
  return (
    <div className="catalog-form" data-testid="catalog-form" data-entry={entry.id}>
      {entry.description ? <p className="field-hint catalog-form-about">{entry.description}</p> : null}
      <div className={`catalog-form-columns${side.length > 0 ? '' : ' catalog-form-one'}`}>
        <div className="catalog-form-main">
          <CatalogFields {...common} fields={main} />
        </div>
        {side.length > 0 ? (
          <div className="catalog-form-side">
            <CatalogFields {...common} fields={side} />
          </div>
        ) : null}
      </div>
    </div>
  );
}

export function OtherForm() {
  const id = useId();
  const other = useCompose((s) => s.other);
  const errors = useCompose((s) => s.errors.other);
  const setOther = useCompose((s) => s.setOther);
  const { shown } = useFormProblems('other');
  const types = OTHER_ENTRIES.filter((e) => e.modelName === other.model);
  const entry = catalogEntry(other.model, other.taskType);
  const asForm = entry !== undefined && other.view !== 'json';
  // the chosen type is priced for the input as written (a price by size needs its width and height)
  const typed = valuesOfJson(other.json.trim() === '' ? '{}' : other.json) ?? {};
  const priceOf = (e: TaskTypeEntry) => priceWords(e, e.taskType === other.taskType ? typed : {});
  // main's refusal first; then the JSON's own problem and each key's, as the live check found them
  const jsonProblems = errors.input
    ? [errors.input]
    : Object.entries(shown)
        .filter(([field]) => field === 'input' || field.startsWith('input.'))
        .map(([, message]) => message);
  const formShown = errors.input ? { ...shown, input: errors.input } : shown;

  const chooseModel = (model: string) => {
    const first = OTHER_ENTRIES.find((e) => e.modelName === model);
    const taskType = first?.taskType ?? '';
    setOther({ model, taskType, json: exampleJson({ model, taskType }) });
  };
  const chooseType = (taskType: string) => {
    const untouched = other.json.trim() === '' || other.json === exampleJson(other);
    setOther(untouched ? { taskType, json: exampleJson({ model: other.model, taskType }) } : { taskType });
  };

  return (
    <div className="form-grid form-grid-side-first other-form">
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
            {MODEL_GROUPS.map((group) => (
              <optgroup key={group.kind} label={groupName(group.kind)}>
                {group.models.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </optgroup>
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
                {e.label} ({e.taskType}) · {priceOf(e)}
              </option>
            ))}
          </select>
          <p id={`${id}-price`} className="field-hint price-line" data-testid="other-price">
            {entry?.price
              ? `Price: ${priceOf(entry)}.`
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
        <div className="button-row">
          <button
            type="button"
            className="button button-small"
            onClick={() => setOther({ json: exampleJson(other) })}
          >
            Insert example input
          </button>
          {entry ? (
            <button
              type="button"
              className="button button-small"
              aria-pressed={!asForm}
              onClick={() => setOther({ view: asForm ? 'json' : 'form' })}
            >
              {asForm ? 'Edit as JSON' : 'Edit as form'}
            </button>
          ) : null}
        </div>
      </div>
      <div className="form-main">
        {asForm && entry ? (
          <EntryForm entry={entry} shown={formShown} />
        ) : (
          <OtherJsonEditor problems={jsonProblems} />
        )}
      </div>
    </div>
  );
}
