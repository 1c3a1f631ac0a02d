/**
 * The Face swap tab: a target image and a face image, each checked the moment it is added. Two
 * pictures dropped on the target fill both; more than two make a batch (one task per target,
 * the same face), listed with their thumbnails and removable. One face (face-swap), or several (multi-face-swap:
 * which faces of each picture, by number).
 */
import { useId, useRef } from 'react';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../state/compose-state.ts';
import { BatchPictures } from './BatchPictures.tsx';
import type { FaceSwapMode } from './compose-model.ts';
import type { SlotField } from './compose-slots.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';
import '../../styles/batches.css';

const MODES: { mode: FaceSwapMode; label: string }[] = [
  { mode: 'one', label: 'One face' },
  { mode: 'several', label: 'Several faces' },
];

const PICTURE_RULES = 'JPG, PNG or WebP, each side under 2048 px.';

/** The two picture slots, each with what it is for with one face and with several. */
const PICTURES: { field: SlotField; one: string; several: string }[] = [
  {
    field: 'target_image',
    one: `The photo whose face is replaced. ${PICTURE_RULES} Drop two pictures here to fill both, or more for a batch.`,
    several: `The photo whose faces are replaced. ${PICTURE_RULES} Drop two pictures here to fill both, or more for a batch.`,
  },
  {
    field: 'swap_image',
    one: `The face to put in. ${PICTURE_RULES}`,
    several: `The photo with the faces to put in. ${PICTURE_RULES}`,
  },
];

/** The face numbers of a multi-face swap: which faces of each picture, in the same order. */
const FACE_NUMBERS: {
  field: string;
  key: 'targetFacesIndex' | 'swapFacesIndex';
  label: string;
  hint: string;
}[] = [
  {
    field: 'target_faces_index',
    key: 'targetFacesIndex',
    label: 'Faces to replace (in the target image)',
    hint: 'Face numbers start at 0; separate several with commas, such as 0,1.',
  },
  {
    field: 'swap_faces_index',
    key: 'swapFacesIndex',
    label: 'Faces to use (from the face image)',
    hint: 'In the same order: the first replaces the first.',
  },
];

function ModePicker() {
  const id = useId();
  const mode = useCompose((s) => s.faceSwap.mode);
  const setFaceSwap = useCompose((s) => s.setFaceSwap);
  return (
    <fieldset className="operation-picker face-mode" data-testid="face-swap-mode">
      <legend className="field-label">Faces</legend>
      <div className="operation-group">
        {MODES.map((m) => (
          <label key={m.mode} className="operation-option">
            <input
              type="radio"
              name={`${id}-mode`}
              value={m.mode}
              checked={mode === m.mode}
              onChange={() => setFaceSwap({ mode: m.mode })}
            />
            <span>{m.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function FaceSwapForm() {
  const errors = useCompose((s) => s.errors.faceSwap);
  const form = useCompose((s) => s.faceSwap);
  const setFaceSwap = useCompose((s) => s.setFaceSwap);
  const { shown } = useFormProblems('faceSwap');
  const message = (field: string) => fieldMessage(errors, shown, field);
  const targetRef = useRef<HTMLButtonElement>(null);
  useFocusRequest('face-target', targetRef);
  const several = form.mode === 'several';
  return (
    <div className="face-swap">
      <ModePicker />
      <div className="slot-pair">
        {PICTURES.map((picture) => (
          <MediaSlot
            key={picture.field}
            field={picture.field}
            description={several ? picture.several : picture.one}
            error={message(picture.field)}
            inputRef={picture.field === 'target_image' ? targetRef : undefined}
          />
        ))}
      </div>
      <BatchPictures
        field="target_image"
        heading={(n) =>
          several
            ? `${n} targets: one swap of the chosen faces each, from the same face image`
            : `${n} targets: one face swap each, with the same face`
        }
      />
      {several ? (
        <div className="face-numbers">
          {FACE_NUMBERS.map((faces) => (
            <TextField
              key={faces.field}
              label={faces.label}
              field={faces.field}
              value={form[faces.key]}
              hint={faces.hint}
              error={message(faces.field)}
              announceError={false}
              onChange={(value) => setFaceSwap({ [faces.key]: value })}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
