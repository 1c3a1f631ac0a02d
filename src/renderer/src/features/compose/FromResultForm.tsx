/**
 * The From a result tab: what to do (extend, edit or remix a song; upscale, remove the background
 * of, or segment a picture), the song or picture to start from (a library result, put here by its
 * action in the library, or any file or web address), and the operation's fields as the catalog
 * lists them. Extend adds drag handles on the song's waveform, kept in step with its numbers.
 */
import '../../styles/result-forms.css';
import { useId } from 'react';
import { type InputMediaKind, LIMITS } from '../../../../shared/index.ts';
import { ExtendHandles, type ExtendSide } from '../../components/ExtendHandles.tsx';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { costLine } from '../../model/money-text.ts';
import { useCompose } from '../../state/compose-state.ts';
import { BatchPictures } from './BatchPictures.tsx';
import type { ComposedInput } from './compose-model.ts';
import { LyricsEditor } from './LyricsEditor.tsx';
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
        <fieldset className="operation-group">
          <legend className="operation-group-name">With a song</legend>
          {group('audio').map(option)}
        </fieldset>
        <fieldset className="operation-group">
          <legend className="operation-group-name">With a picture</legend>
          {group('image').map(option)}
        </fieldset>
      </div>
      <p id={`${id}-what`} className="field-hint" data-testid="operation-description">
        {operationWords(operation).description}
      </p>
    </fieldset>
  );
}

function NumberField({
  field,
  value,
  error,
  onChange,
}: {
  field: ResultField;
  value: string;
  error: string | null;
  onChange(value: string): void;
}) {
  const id = useId();
  const { rule, words } = field;
  const range =
    rule.min !== undefined && rule.max !== undefined ? `${rule.min}–${rule.max}${words.unit ?? ''}.` : null;
  const hint = [words.hint, range].filter(Boolean).join(' ') || null;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {words.label}
        {rule.required ? null : <span className="optional"> (optional)</span>}
      </label>
      <input
        id={id}
        type="number"
        className="input-number"
        data-field={field.field}
        inputMode="decimal"
        step={rule.type === 'integer' ? 1 : 'any'}
        min={rule.min}
        max={rule.max}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-message` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <FieldMessage id={`${id}-message`} error={error} hint={hint} announce={false} />
    </div>
  );
}

function CheckboxField({
  field,
  value,
  onChange,
}: {
  field: ResultField;
  value: boolean;
  onChange(on: boolean): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="check-field" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          data-field={field.field}
          checked={value}
          aria-describedby={field.words.hint ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{field.words.label}</span>
      </label>
      <FieldMessage id={`${id}-hint`} hint={field.words.hint} announce={false} />
    </div>
  );
}

/** One catalog field, edited the way its rule says. */
function ResultFieldInput({ field, message }: { field: ResultField; message(name: string): string | null }) {
  const value = useCompose((s) => s.fromResult.values[s.fromResult.operation][field.field]);
  const setValues = useCompose((s) => s.setResultValues);
  const set = (next: string | boolean) => setValues({ [field.field]: next });
  const text = typeof value === 'string' ? value : '';
  switch (field.kind) {
    case 'switch':
      return <CheckboxField field={field} value={value === true} onChange={set} />;
    case 'number':
      return <NumberField field={field} value={text} error={message(field.field)} onChange={set} />;
    case 'lyrics':
      return (
        <LyricsEditor
          label={field.words.label}
          field={field.field}
          value={text}
          error={message(field.field)}
          onChange={set}
        />
      );
    default:
      return (
        <TextField
          label={field.words.label}
          field={field.field}
          optional={!field.rule.required}
          multiline={field.rule.maxLength !== undefined}
          rows={2}
          value={text}
          max={field.rule.maxLength}
          hint={field.words.hint ?? null}
          placeholder={field.example ? `e.g. ${field.example}` : undefined}
          error={message(field.field)}
          announceError={false}
          onChange={set}
        />
      );
  }
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
  const values = useCompose((s) => s.fromResult.values.extend);
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
    return field ? <ResultFieldInput key={name} field={field} message={message} /> : null;
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
      <ResultFieldInput key={`${operation}:${field.field}`} field={field} message={message} />
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
