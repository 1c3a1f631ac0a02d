/**
 * The Face swap tab: a target image and a face image, each checked the moment it is added. Two
 * pictures dropped on the target fill both.
 */
import { useRef } from 'react';
import { MediaSlot } from '../../components/MediaSlot.tsx';
import { useFocusRequest } from '../../hooks/useFocusRequest.ts';
import { useCompose } from '../../stores/compose-store.ts';
import { fieldMessage, useFormProblems } from './use-form-problems.ts';

export function FaceSwapForm() {
  const errors = useCompose((s) => s.errors.faceSwap);
  const { shown } = useFormProblems('faceSwap');
  const targetRef = useRef<HTMLButtonElement>(null);
  useFocusRequest('face-target', targetRef);
  return (
    <div className="slot-pair">
      <MediaSlot
        field="target_image"
        description="The photo whose face is replaced. JPG, PNG or WebP, each side under 2048 px. Drop two pictures here to fill both."
        error={fieldMessage(errors, shown, 'target_image')}
        inputRef={targetRef}
      />
      <MediaSlot
        field="swap_image"
        description="The face to put in. JPG, PNG or WebP, each side under 2048 px."
        error={fieldMessage(errors, shown, 'swap_image')}
      />
    </div>
  );
}
