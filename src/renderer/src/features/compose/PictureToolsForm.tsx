/**
 * The Picture tools tab (issue 21, item 8), as Upscayl has it: drop (or browse, paste) one or
 * more pictures, choose a tool (upscale, remove background, segment: the catalog's picture
 * tools, each with its price), set its fields, and Queue sends one task per picture as one
 * batch. The tools are generated from the catalog (PICTURE_TOOLS); a deterministic tool has no
 * Variations (QueueBar). The picture and its batch are the From a result tab's picture slot.
 */
import '../../styles/result-forms.css';
import { useId } from 'react';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { useStudio } from '../../state/studio-state.ts';
import { BatchPictures } from './BatchPictures.tsx';
import { ResultFieldInput } from './FromResultForm.tsx';
import { entryPriceWords } from './kind-tabs.ts';
import {
  entryOf,
  operationWords,
  PICTURE_TOOLS,
  type ResultOperation,
  resultFields,
  resultSlotOf,
} from './result-operations.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';

function ToolPicker() {
  const id = useId();
  const tool = useCompose((s) => s.fromResult.tool);
  const setTool = useCompose((s) => s.setTool);
  const demo = useStudio((s) => s.settings?.demoLibrary ?? false);
  const option = (op: ResultOperation) => (
    <label key={op} className="operation-option">
      <input
        type="radio"
        name={`${id}-tool`}
        value={op}
        checked={op === tool}
        data-field={op === tool ? 'operation' : undefined}
        aria-describedby={`${id}-${op}-price`}
        onChange={() => setTool(op)}
      />
      <span>{operationWords(op).label}</span>
      <span id={`${id}-${op}-price`} className="visually-hidden">
        {entryPriceWords(entryOf(op), {}, demo)}
      </span>
    </label>
  );
  return (
    <fieldset className="operation-picker" aria-describedby={`${id}-what`}>
      <legend className="field-label">Tool</legend>
      <div className="operation-group">{PICTURE_TOOLS.map(option)}</div>
      <p id={`${id}-what`} className="field-hint" data-testid="tool-description">
        {operationWords(tool).description} {priceSentence(tool, demo)}
      </p>
    </fieldset>
  );
}

/** The tool's price in a sentence: "$0.001 per image.", or that Queue asks first (demo: not billed). */
function priceSentence(tool: ResultOperation, demo: boolean): string {
  const words = entryPriceWords(entryOf(tool), {}, demo);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

export function PictureToolsForm() {
  const tool = useCompose((s) => s.fromResult.tool);
  const errors = useCompose((s) => s.errors.pictures);
  const { shown } = useFormProblems('pictures');
  const message = (field: string) => fieldMessage(errors, shown, field);
  const slot = resultSlotOf(tool);
  const label = operationWords(tool).label;
  const same = entryOf(tool).deterministic
    ? ' The same picture gives the same result, so there are no variations.'
    : '';
  return (
    <div className="result-form picture-tools" data-tool={tool}>
      <ToolPicker />
      <div className="form-grid">
        <div className="form-main">
          <MediaSlot
            field={slot}
            label="Pictures"
            description={`Drop one or more pictures (or browse, paste, or give a web address): one task each, queued as one batch.${same}`}
            error={message(slot)}
          />
          <BatchPictures field="source_image" heading={(n) => `${n} pictures: ${label}, one task each`} />
        </div>
        <div className="form-side">
          {resultFields(tool).map((field) => (
            <ResultFieldInput
              key={`${tool}:${field.field}`}
              field={field}
              message={message}
              operation={tool}
            />
          ))}
        </div>
      </div>
    </div>
  );
}
