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
import { fieldMessage, useFormProblems } from './use-form-problems.ts';
import '../../styles/batches.css';

const MODES: { mode: FaceSwapMode; label: string }[] = [
  { mode: 'one', label: 'One face' },
  { mode: 'several', label: 'Several faces' },
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
        <MediaSlot
          field="target_image"
          description={
            several
              ? 'The photo whose faces are replaced. JPG, PNG or WebP, each side under 2048 px.'
              : 'The photo whose face is replaced. JPG, PNG or WebP, each side under 2048 px. Drop two pictures here to fill both, or more for a batch.'
          }
          error={message('target_image')}
          inputRef={targetRef}
        />
        <MediaSlot
          field="swap_image"
          description={
            several
              ? 'The photo with the faces to put in. JPG, PNG or WebP, each side under 2048 px.'
              : 'The face to put in. JPG, PNG or WebP, each side under 2048 px.'
          }
          error={message('swap_image')}
        />
      </div>
      <BatchPictures
        field="target_image"
        heading={(n) => `${n} targets: one face swap each, with the same face`}
      />
      {several ? (
        <div className="face-numbers">
          <TextField
            label="Faces to replace (in the target image)"
            field="target_faces_index"
            value={form.targetFacesIndex}
            hint="Face numbers start at 0; separate several with commas, such as 0,1."
            error={message('target_faces_index')}
            announceError={false}
            onChange={(targetFacesIndex) => setFaceSwap({ targetFacesIndex })}
          />
          <TextField
            label="Faces to use (from the face image)"
            field="swap_faces_index"
            value={form.swapFacesIndex}
            hint="In the same order: the first replaces the first."
            error={message('swap_faces_index')}
            announceError={false}
            onChange={(swapFacesIndex) => setFaceSwap({ swapFacesIndex })}
          />
        </div>
      ) : null}
    </div>
  );
}
