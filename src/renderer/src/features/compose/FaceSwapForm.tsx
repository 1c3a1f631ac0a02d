/**
 * The Face swap tab: a target image and a face image, each checked the moment it is added. Two
 * pictures dropped on the target fill both; more than two make a batch (one task per target,
 * the same face), listed with their thumbnails and removable. One face (face-swap), or several (multi-face-swap:
 * which faces of each picture, by number). Each field says its catalog entry's words (the entry
 * of the mode chosen), as the generated form and the CLI do.
 */
import { useId, useRef } from 'react';
import { LIMITS } from '../../../../shared/index.ts';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { TextField } from '../../components/TextField.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../state/compose-state.ts';
import { BatchPictures } from './BatchPictures.tsx';
import type { FaceSwapMode } from './compose-model.ts';
import type { SlotField } from './compose-slots.ts';
import { catalogField } from './hand-made-words.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';
import '../../styles/batches.css';

const MODES: { mode: FaceSwapMode; label: string }[] = [
  { mode: 'one', label: 'One face' },
  { mode: 'several', label: 'Several faces' },
];

const ONE = 'image-toolkit/face-swap';
const SEVERAL = 'image-toolkit/multi-face-swap';

const PICTURE_RULES = `JPG, PNG or WebP, each side under ${LIMITS.imageMaxSideExclusive} px.`;
const BATCH_HINT = 'Drop two pictures here to fill both, or more for a batch.';

/** A picture slot's words under an entry: its catalog help, the picture rules, and the slot's own hint. */
function pictureWords(entryId: string, field: SlotField): string {
  const help = catalogField(entryId, field).help ?? '';
  return [help, PICTURE_RULES, field === 'target_image' ? BATCH_HINT : ''].filter(Boolean).join(' ');
}

/** The two picture slots, each with what it is for with one face and with several. */
const PICTURES: { field: SlotField; one: string; several: string }[] = (
  ['target_image', 'swap_image'] as const
).map((field) => ({ field, one: pictureWords(ONE, field), several: pictureWords(SEVERAL, field) }));

/** The face numbers of a multi-face swap, in the catalog's words: which faces of each picture, in the same order. */
const FACE_NUMBERS: { field: string; key: 'targetFacesIndex' | 'swapFacesIndex' }[] = [
  { field: 'target_faces_index', key: 'targetFacesIndex' },
  { field: 'swap_faces_index', key: 'swapFacesIndex' },
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
              label={catalogField(SEVERAL, faces.field).label}
              field={faces.field}
              value={form[faces.key]}
              hint={catalogField(SEVERAL, faces.field).help}
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
