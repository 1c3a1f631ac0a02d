/**
 * The From a result tab: what to do (the operations the catalog generates: extend, edit or remix
 * a song; upscale, remove the background of, or segment a picture), the song or picture to start
 * from (a library result, put here by its action in the library, or any file or web address), and
 * the operation's fields as the catalog lists them, each by its widget of the generic form. Extend
 * adds drag handles on the song's waveform, kept in step with its numbers.
 */
import '../../styles/result-forms.css';
import { useId } from 'react';
import { type InputMediaKind, LIMITS, mediaKind } from '../../../../shared/index.ts';
import { ExtendHandles, type ExtendSide } from '../../components/ExtendHandles.tsx';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { costLine } from '../../model/money-text.ts';
import { useCompose } from '../../state/compose-state.ts';
import { BatchPictures } from './BatchPictures.tsx';
import { WIDGETS } from './catalog-form/field-widgets.tsx';
import type { ComposedInput } from './compose-model.ts';
import {
  extendSeconds,
  operationLabel,
  operationWords,
  RESULT_OPERATIONS,
  type ResultField,
  type ResultOperation,
  resultFields,
  resultSlotOf,
  sourceKindOf,
} from './result-operations.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';

/** The kinds of source the operations take, in the catalog's order (a song, a picture). */
const SOURCE_KINDS = [...new Set(RESULT_OPERATIONS.map(sourceKindOf))];

const HANDLE_FIELDS = { left: 'left_extend_duration', right: 'right_extend_duration' } as const;

function OperationPicker() {
  const id = useId();
  const operation = useCompose((s) => s.fromResult.operation);
  const setOperation = useCompose((s) => s.setOperation);
  const group = (kind: InputMediaKind) => RESULT_OPERATIONS.filter((op) => sourceKindOf(op) === kind);
  const option = (op: ResultOperation) => (
    <label key={op} className="operation-option">
      <input
        type="radio"
        name={`${id}-operation`}
        value={op}
        checked={op === operation}
        data-field={op === operation ? 'operation' : undefined}
        onChange={() => setOperation(op)}
      />
      <span>{operationWords(op).label}</span>
    </label>
  );
  return (
    <fieldset className="operation-picker" aria-describedby={`${id}-what`}>
      <legend className="field-label">What to do</legend>
      <div className="operation-groups">
        {SOURCE_KINDS.map((kind) => (
          <fieldset key={kind} className="operation-group">
            <legend className="operation-group-name">With a {mediaKind(kind).words.result}</legend>
            {group(kind).map(option)}
          </fieldset>
        ))}
      </div>
      <p id={`${id}-what`} className="field-hint" data-testid="operation-description">
        {operationWords(operation).description}
      </p>
    </fieldset>
  );
}

/** A generic widget's value as the tab keeps it: text as typed, or on/off. */
function kept(value: unknown): string | boolean {
  if (typeof value === 'boolean') return value;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * One catalog field of `operation` (the From a result tab's, or the Picture tools tab's tool),
 * edited by its widget from the generic form's registry.
 */
export function ResultFieldInput({
  field,
  message,
  operation,
}: {
  field: ResultField;
  message(name: string): string | null;
  operation: ResultOperation;
}) {
  const values = useCompose((s) => s.fromResult.values[operation]);
  const setValues = useCompose((s) => s.setResultValues);
  const Widget = WIDGETS[field.form.widget.kind];
  return (
    <Widget
      field={field.form}
      dataField={field.field}
      value={values?.[field.field]}
      valueOf={(name) => values?.[name]}
      error={message(field.field)}
      set={(patch) =>
        setValues(Object.fromEntries(Object.entries(patch).map(([name, value]) => [name, kept(value)])))
      }
    />
  );
}

/** What an extend adds, how long the song gets, and what it costs, in one line. */
function extendSummary(left: number, right: number, songSeconds: number | null, composed: ComposedInput) {
  const parts = [left > 0 ? `${left} s before` : '', right > 0 ? `${right} s after` : ''].filter(Boolean);
  const added = left + right;
  const adds = parts.length > 0 ? `Adds ${parts.join(' and ')}` : 'Adds nothing yet';
  const length =
    added === 0
      ? ''
      : songSeconds
        ? `: ${Math.round(songSeconds)} s becomes ${Math.round(songSeconds + added)} s`
        : '';
  const cost = costLine(composed.model, composed.taskType, composed.input);
  const price = cost.amount ? `${cost.amount} (${cost.detail})` : `unknown (${cost.detail})`;
  return `${adds}${length}. Price: ${price}.`;
}

function ExtendSection({
  message,
  composed,
}: {
  message(name: string): string | null;
  composed: ComposedInput;
}) {
  const values = useCompose((s) => s.fromResult.values.extend) ?? {};
  const source = useCompose((s) => s.slots.source_audio);
  const setValues = useCompose((s) => s.setResultValues);
  const fields = resultFields('extend');
  const left = extendSeconds(values, HANDLE_FIELDS.left);
  const right = extendSeconds(values, HANDLE_FIELDS.right);
  const max = Math.min(
    ...fields
      .filter((f) => f.field === HANDLE_FIELDS.left || f.field === HANDLE_FIELDS.right)
      .map((f) => f.rule.max ?? LIMITS.audioMaxSeconds),
  );
  const seconds = source.result?.seconds ?? null;
  const onChange = (side: ExtendSide, n: number) => setValues({ [HANDLE_FIELDS[side]]: String(n) });
  const numberField = (name: string) => {
    const field = fields.find((f) => f.field === name);
    return field ? <ResultFieldInput key={name} field={field} message={message} operation="extend" /> : null;
  };
  return (
    <section className="extend-section" aria-label="Seconds to add">
      <ExtendHandles
        left={left}
        right={right}
        max={max}
        sourceSeconds={seconds}
        audioUrl={source.result?.mediaUrl ?? null}
        title={source.status === 'empty' ? 'The song' : source.label}
        onChange={onChange}
      />
      <p className="extend-summary" data-testid="extend-summary" aria-live="polite">
        {extendSummary(left, right, seconds, composed)}
      </p>
      <div className="extend-numbers">
        {numberField(HANDLE_FIELDS.left)}
        {numberField(HANDLE_FIELDS.right)}
      </div>
    </section>
  );
}

export function FromResultForm() {
  const operation = useCompose((s) => s.fromResult.operation);
  const errors = useCompose((s) => s.errors.fromResult);
  const { shown, composed } = useFormProblems('fromResult');
  const message = (field: string) => fieldMessage(errors, shown, field);
  const slot = resultSlotOf(operation);
  const handles = operation === 'extend';
  const fields = resultFields(operation).filter(
    (f) => !handles || (f.field !== HANDLE_FIELDS.left && f.field !== HANDLE_FIELDS.right),
  );
  // a song's form is its words (the source beside them); a picture's is the picture (its settings beside it)
  const song = sourceKindOf(operation) === 'audio';
  const side = song ? fields.filter((f) => f.kind === 'number' || f.kind === 'switch') : fields;
  const main = song ? fields.filter((f) => !side.includes(f)) : [];
  const words = operationWords(operation);
  const source = (
    <MediaSlot
      key={slot}
      field={slot}
      description={song ? words.source : `${words.source} Drop several pictures for a batch, one task each.`}
      error={message(slot)}
    />
  );
  const inputs = (list: ResultField[]) =>
    list.map((field) => (
      <ResultFieldInput
        key={`${operation}:${field.field}`}
        field={field}
        message={message}
        operation={operation}
      />
    ));

  return (
    <div className="result-form" data-operation={operation}>
      <OperationPicker />
      <div className="form-grid">
        <div className="form-main">
          {handles ? <ExtendSection message={message} composed={composed} /> : null}
          {song ? null : source}
          {song ? null : (
            <BatchPictures
              field="source_image"
              heading={(n) => `${n} pictures: one ${operationLabel(operation).toLowerCase()} each`}
            />
          )}
          {inputs(main)}
        </div>
        <div className="form-side">
          {song ? source : null}
          {inputs(side)}
        </div>
      </div>
    </div>
  );
}
