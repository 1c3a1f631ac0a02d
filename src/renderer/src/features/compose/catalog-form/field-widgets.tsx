/**
 * The widget registry of generated forms: one component per widget kind of the catalog
 * (input-fields.ts FieldWidget), each showing the field's label, help and message and writing
 * the value the input takes. A media field is the form's own (a slot, a drop target): the form
 * passes it in.
 */
import { type ReactNode, useId, useState } from 'react';
import type { WidgetKind } from '../../../../../shared/index.ts';
import { FieldMessage } from '../../../components/FieldMessage.tsx';
import { TextField } from '../../../components/TextField.tsx';
import { randomSeed } from '../compose-model.ts';
import { LyricsEditor } from '../LyricsEditor.tsx';
import { PromptLinesToggle } from '../PromptLinesToggle.tsx';
import { type FormField, numberOfText, sizeChoice, textOf } from './form-fields.ts';

export interface WidgetProps {
  field: FormField;
  /** The `data-field` of its control (`input.seed` in the Other tab, `seed` elsewhere). */
  dataField: string;
  value: unknown;
  /** Another field's value (the aspect-ratio widget's height). */
  valueOf(name: string): unknown;
  error: string | null;
  /** Sets fields of the input; undefined leaves one out. */
  set(patch: Record<string, unknown>): void;
  /** The form's own control for a media field. */
  media?: (field: FormField, error: string | null) => ReactNode;
}

/** The help line, then the range of a number with its unit: `1.5–5.` */
function numberHint({ rule }: FormField): string | null {
  const range =
    rule.min !== undefined && rule.max !== undefined ? `${rule.min}–${rule.max}${rule.unit ?? ''}.` : null;
  return [rule.help, range].filter(Boolean).join(' ') || null;
}

function Label({ id, field }: { id: string; field: FormField }) {
  return (
    <label htmlFor={id} className="field-label">
      {field.rule.label}
      {field.rule.required ? null : <span className="optional"> (optional)</span>}
    </label>
  );
}

function NumberInput(props: WidgetProps & { className?: string; children?: ReactNode }) {
  const id = useId();
  const { field, error } = props;
  const { rule, widget } = field;
  const hint = numberHint(field);
  const step = widget.kind === 'number' && widget.step ? widget.step : rule.type === 'integer' ? 1 : 'any';
  return (
    <div className="field">
      <Label id={id} field={field} />
      <div className="inline-inputs">
        <input
          id={id}
          type="number"
          className={`input-number${props.className ? ` ${props.className}` : ''}`}
          data-field={props.dataField}
          inputMode="decimal"
          step={step}
          min={rule.min}
          max={rule.max}
          value={textOf(props.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${id}-message` : undefined}
          onChange={(event) => props.set({ [field.name]: numberOfText(event.target.value, rule.type) })}
        />
        {props.children}
      </div>
      <FieldMessage id={`${id}-message`} error={error} hint={hint} announce={false} />
    </div>
  );
}

function SeedInput(props: WidgetProps) {
  return (
    <NumberInput {...props} className="seed-input">
      <button
        type="button"
        className="button button-small"
        onClick={() => props.set({ [props.field.name]: randomSeed() })}
      >
        Random seed
      </button>
    </NumberInput>
  );
}

function TextInput(props: WidgetProps & { multiline: boolean }) {
  const { field } = props;
  const example = typeof field.example === 'string' && field.example !== '' ? field.example : null;
  const text = (
    <TextField
      label={field.rule.label}
      field={props.dataField}
      optional={!field.rule.required}
      multiline={props.multiline}
      rows={2}
      value={textOf(props.value)}
      max={field.rule.maxLength}
      hint={field.rule.help ?? null}
      placeholder={example ? `e.g. ${example}` : undefined}
      error={props.error}
      announceError={false}
      onChange={(text) => props.set({ [field.name]: text === '' ? undefined : text })}
    />
  );
  if (!props.multiline || field.name !== 'prompt') return text;
  return (
    <div className="prompt-with-lines">
      {text}
      <PromptLinesToggle prompt={textOf(props.value)} />
    </div>
  );
}

function LyricsInput(props: WidgetProps) {
  return (
    <LyricsEditor
      label={props.field.rule.label}
      field={props.dataField}
      value={textOf(props.value)}
      error={props.error}
      onChange={(text) => props.set({ [props.field.name]: text === '' ? undefined : text })}
    />
  );
}

function ToggleInput(props: WidgetProps) {
  const id = useId();
  const { field } = props;
  return (
    <div className="field">
      <label className="check-field" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          data-field={props.dataField}
          checked={props.value === true}
          aria-describedby={field.rule.help || props.error ? `${id}-hint` : undefined}
          onChange={(event) => props.set({ [field.name]: event.target.checked })}
        />
        <span>{field.rule.label}</span>
      </label>
      <FieldMessage id={`${id}-hint`} error={props.error} hint={field.rule.help} announce={false} />
    </div>
  );
}

function ChoiceInput(props: WidgetProps) {
  const id = useId();
  const { field, error } = props;
  if (field.widget.kind !== 'choice') return null;
  const { choices } = field.widget;
  const index = choices.findIndex((c) => c.value === props.value);
  const hint = field.rule.help ?? null;
  return (
    <div className="field">
      <Label id={id} field={field} />
      <select
        id={id}
        data-field={props.dataField}
        value={index >= 0 ? String(index) : props.value === undefined ? '' : 'other'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? `${id}-message` : undefined}
        onChange={(event) => {
          const chosen = choices[Number(event.target.value)];
          props.set({ [field.name]: event.target.value === '' ? undefined : chosen?.value });
        }}
      >
        {field.rule.required ? null : <option value="">The service's default</option>}
        {choices.map((choice, i) => (
          <option key={String(choice.value)} value={String(i)}>
            {choice.label}
          </option>
        ))}
        {index < 0 && props.value !== undefined ? <option value="other">{textOf(props.value)}</option> : null}
      </select>
      <FieldMessage id={`${id}-message`} error={error} hint={hint} announce={false} />
    </div>
  );
}

/** Sizes that set the width and its height together, or any two numbers (Custom). */
function AspectRatioInput(props: WidgetProps) {
  const id = useId();
  const [customPicked, setCustomPicked] = useState(false);
  const { field, error } = props;
  if (field.widget.kind !== 'aspect-ratio') return null;
  const widget = field.widget;
  const height = props.valueOf(widget.height);
  const chosen = sizeChoice(widget, props.value, height);
  const custom = customPicked || (chosen === 'custom' && (props.value !== undefined || height !== undefined));
  const side = (name: string, label: string, value: unknown) => (
    <label className="size-side">
      <span>{label}</span>
      <input
        type="number"
        className="input-number"
        data-field={name === field.name ? props.dataField : props.dataField.replace(field.name, name)}
        inputMode="numeric"
        step={1}
        min={field.rule.min}
        max={field.rule.max}
        value={textOf(value)}
        onChange={(event) => props.set({ [name]: numberOfText(event.target.value, 'integer') })}
      />
    </label>
  );
  return (
    <div className="field">
      <Label id={id} field={field} />
      <select
        id={id}
        value={custom ? 'custom' : chosen === 'custom' ? '' : chosen}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-message`}
        onChange={(event) => {
          const size = widget.sizes[Number(event.target.value)];
          setCustomPicked(event.target.value === 'custom');
          if (event.target.value === '') props.set({ [field.name]: undefined, [widget.height]: undefined });
          else if (size) props.set({ [field.name]: size.width, [widget.height]: size.height });
          else props.set({ [field.name]: props.value ?? 1024, [widget.height]: height ?? 1024 });
        }}
      >
        <option value="">The service's default</option>
        {widget.sizes.map((size, i) => (
          <option key={size.label} value={String(i)}>
            {size.label} · {size.width} x {size.height}
          </option>
        ))}
        <option value="custom">Custom</option>
      </select>
      {custom ? (
        <div className="inline-inputs size-sides">
          {side(field.name, 'Width', props.value)}
          {side(widget.height, 'Height', height)}
        </div>
      ) : null}
      <FieldMessage id={`${id}-message`} error={error} hint={field.rule.help ?? null} announce={false} />
    </div>
  );
}

function MediaInput(props: WidgetProps) {
  return <>{props.media ? props.media(props.field, props.error) : null}</>;
}

/** Each widget kind's component. */
export const WIDGETS: Readonly<Record<WidgetKind, (props: WidgetProps) => ReactNode>> = {
  text: (props) => <TextInput {...props} multiline={false} />,
  'long-text': (props) => <TextInput {...props} multiline />,
  lyrics: LyricsInput,
  number: NumberInput,
  choice: ChoiceInput,
  seed: SeedInput,
  'aspect-ratio': AspectRatioInput,
  toggle: ToggleInput,
  media: MediaInput,
  none: () => null,
};
