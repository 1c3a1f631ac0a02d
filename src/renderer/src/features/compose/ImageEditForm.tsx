/**
 * The Image edit tab (hand-made: its prompt names the pictures): up to three images, a prompt
 * that can name them, and the tuning numbers, each in the catalog entry's words.
 */
import { type ReactNode, useId, useRef } from 'react';
import { entryById, type FieldRule, LIMITS } from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../state/compose-state.ts';
import { randomSeed } from './compose-model.ts';
import { PromptLinesToggle } from './PromptLinesToggle.tsx';
import { insertWord } from './prompt-edits.ts';
import { replaceRange } from './text-insert.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';

const IMAGE_NAMES = ['image1', 'image2', 'image3'] as const;

/** The entry's fields: their words are the catalog's. */
const FIELDS = entryById('qwen-image/image-edit')?.input.fields ?? {};
const label = (name: string) => FIELDS[name]?.label ?? name;
const help = (name: string) => FIELDS[name]?.help;
/** A number's help, then its range (`1–100.`). */
function numberHint(rule: FieldRule | undefined): string | undefined {
  const range = rule?.min !== undefined && rule.max !== undefined ? `${rule.min}–${rule.max}.` : '';
  return [rule?.help, range].filter(Boolean).join(' ') || undefined;
}

function NumberField(props: {
  label: string;
  /** The input field it edits (focused when it is the first problem). */
  field: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  step?: string;
  min?: number;
  max?: number;
  /** Extra class of the input (the seed is wider: all its digits show). */
  className?: string;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {props.label} <span className="optional">(optional)</span>
      </label>
      <div className="inline-inputs">
        <input
          id={id}
          type="number"
          className={`input-number${props.className ? ` ${props.className}` : ''}`}
          data-field={props.field}
          inputMode="decimal"
          step={props.step ?? '1'}
          min={props.min}
          max={props.max}
          value={props.value}
          aria-describedby={props.error || props.hint ? `${id}-message` : undefined}
          aria-invalid={props.error ? true : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.children}
      </div>
      <FieldMessage id={`${id}-message`} error={props.error} hint={props.hint} announce={false} />
    </div>
  );
}

export function ImageEditForm() {
  const form = useCompose((s) => s.imageEdit);
  const errors = useCompose((s) => s.errors.imageEdit);
  const setForm = useCompose((s) => s.setImageEdit);
  const { shown } = useFormProblems('imageEdit');
  const message = (field: string) => fieldMessage(errors, shown, field);
  const promptRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useFocusRequest('edit-prompt', promptRef);

  /** Types the image's name at the caret (undoable like typing). */
  const insertName = (name: string) => {
    const area = promptRef.current;
    if (!area) return;
    const { selectionStart: start, selectionEnd: end, value } = area;
    const edit = insertWord(value, start, end, name);
    // as one replacement: what was typed in, up to where the old text goes on unchanged
    const replacedEnd = value.length - (edit.text.length - edit.caret);
    replaceRange(area, start, replacedEnd, edit.text.slice(start, edit.caret), edit.caret);
  };

  return (
    <div className="image-edit">
      <div className="slot-row">
        {IMAGE_NAMES.map((name, index) => (
          <MediaSlot
            key={name}
            field={name}
            optional={index > 0}
            description={help(name) ?? ''}
            error={message(name)}
          />
        ))}
      </div>
      <div className="form-grid">
        <div className="form-main">
          <TextField
            label={label('prompt')}
            field="prompt"
            multiline
            rows={3}
            value={form.prompt}
            max={LIMITS.promptMaxChars}
            placeholder="e.g. put the hat from image2 on the person in image1"
            error={message('prompt')}
            announceError={false}
            inputRef={promptRef}
            onChange={(prompt) => setForm({ prompt })}
          />
          <PromptLinesToggle prompt={form.prompt} />
          <fieldset className="chips">
            <legend className="chips-legend">Refer to</legend>
            {IMAGE_NAMES.map((name) => (
              <button
                key={name}
                type="button"
                className="chip-button"
                aria-label={`Insert ${name} into the prompt`}
                onClick={() => insertName(name)}
              >
                {name}
              </button>
            ))}
          </fieldset>
          <TextField
            label={label('negative_prompt')}
            field="negative_prompt"
            optional
            value={form.negativePrompt}
            max={LIMITS.promptMaxChars}
            error={message('negative_prompt')}
            announceError={false}
            onChange={(negativePrompt) => setForm({ negativePrompt })}
          />
        </div>
        <div className="form-side">
          <NumberField
            label={label('seed')}
            field="seed"
            className="seed-input"
            value={form.seed}
            error={message('seed')}
            hint={help('seed')}
            onChange={(seed) => setForm({ seed })}
          >
            <button
              type="button"
              className="button button-small"
              onClick={() => setForm({ seed: String(randomSeed()) })}
            >
              Random seed
            </button>
          </NumberField>
          <NumberField
            label={label('steps')}
            field="steps"
            value={form.steps}
            min={FIELDS.steps?.min}
            max={FIELDS.steps?.max}
            error={message('steps')}
            hint={numberHint(FIELDS.steps)}
            onChange={(steps) => setForm({ steps })}
          />
          <NumberField
            label={label('flow_shift')}
            field="flow_shift"
            value={form.flowShift}
            step="0.1"
            error={message('flow_shift')}
            hint={help('flow_shift')}
            onChange={(flowShift) => setForm({ flowShift })}
          />
        </div>
      </div>
    </div>
  );
}
