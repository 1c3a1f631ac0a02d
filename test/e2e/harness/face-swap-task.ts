/**
 * A face swap queued through the backend the way a test sets one up: a target picture and a face
 * picture written to the rig's files folder (solid colours, see local-media.ts), then
 * `tasks.queue` on the image toolkit with both.
 */
import type { Task } from '../../../src/shared/index.ts';
import type { Colour } from '../../support/pictures.ts';
import { writePicture } from './local-media.ts';
import type { StudioRig } from './studio-rig.ts';

export interface PictureSpec {
  name: string;
  width: number;
  height: number;
  colour?: Colour;
}

/** Writes the two pictures and queues a face swap of them; the task is returned as queued, not waited for. */
export async function queueFaceSwap(
  rig: StudioRig,
  title: string,
  target: PictureSpec,
  face: PictureSpec,
): Promise<Task> {
  const targetPath = await writePicture(
    rig.filesDir,
    target.name,
    target.width,
    target.height,
    target.colour,
  );
  const facePath = await writePicture(rig.filesDir, face.name, face.width, face.height, face.colour);
  return rig.call('tasks.queue', {
    model: 'service/image-toolkit',
    taskType: 'face-swap',
    title,
    input: { target_image: targetPath, swap_image: facePath },
  });
}
