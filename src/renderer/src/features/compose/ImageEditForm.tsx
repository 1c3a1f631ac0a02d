/** The Image edit tab: up to three images, a prompt that can name them, and the tuning numbers. */
import { type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { FieldMessage } from '../../components/FieldMessage.tsx';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { randomSeed } from './compose-model.ts';
import { insertWord } from './prompt-edits.ts';

const IMAGE_NAMES = ['image1', 'image2', 'image3'] as const;

function NumberField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  step?: string;
  min?: number;
  max?: number;
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
          className="input-number"
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
      <FieldMessage id={`${id}-message`} error={props.error} hint={props.hint} />
    </div>
  );
}

export function ImageEditForm() {
  const form = useCompose((s) => s.imageEdit);
  const errors = useCompose((s) => s.errors.imageEdit);
  const setForm = useCompose((s) => s.setImageEdit);
  const promptRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const pendingCaret = useRef<number | null>(null);
  useFocusRequest('edit-prompt', promptRef);

  useLayoutEffect(() => {
    if (pendingCaret.current !== null && promptRef.current) {
      promptRef.current.focus();
      promptRef.current.setSelectionRange(pendingCaret.current, pendingCaret.current);
      pendingCaret.current = null;
    }
  });

  const insertName = (name: string) => {
    const area = promptRef.current;
    const edit = insertWord(
      form.prompt,
      area?.selectionStart ?? form.prompt.length,
      area?.selectionEnd ?? form.prompt.length,
      name,
    );
    pendingCaret.current = edit.caret;
    setForm({ prompt: edit.text });
  };

  return (
    <div className="image-edit">
      <div className="slot-row">
        {IMAGE_NAMES.map((name, index) => (
          <MediaSlot
            key={name}
            field={name}
            optional={index > 0}
            description={index === 0 ? 'The image to edit.' : 'Another image the prompt can refer to.'}
            error={errors[name]}
          />
        ))}
      </div>
      <div className="form-grid">
        <div className="form-main">
          <TextField
            label="Prompt"
            field="prompt"
            multiline
            rows={3}
            value={form.prompt}
            max={LIMITS.promptMaxChars}
            placeholder="e.g. put the hat from image2 on the person in image1"
            error={errors.prompt}
            inputRef={promptRef}
            onChange={(prompt) => setForm({ prompt })}
          />
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
            label="Negative prompt"
            field="negative_prompt"
            optional
            value={form.negativePrompt}
            max={LIMITS.promptMaxChars}
            error={errors.negative_prompt}
            onChange={(negativePrompt) => setForm({ negativePrompt })}
          />
        </div>
        <div className="form-side">
          <NumberField
            label="Seed"
            value={form.seed}
            error={errors.seed}
            hint="Same seed, same result."
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
            label="Steps"
            value={form.steps}
            min={1}
            max={100}
            error={errors.steps}
            hint="1–100; more is slower and finer."
            onChange={(steps) => setForm({ steps })}
          />
          <NumberField
            label="flow_shift"
            value={form.flowShift}
            step="0.1"
            error={errors.flow_shift}
            onChange={(flowShift) => setForm({ flowShift })}
          />
        </div>
      </div>
    </div>
  );
}
