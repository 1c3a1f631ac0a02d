/**
 * The library the README's pictures show (screenshots.test.ts), run by the real engine: four
 * songs, four face swaps, four image edits, three variations of one image edit (their cards say
 * "1 of 3 · seed 1001") and two boards in the navigation.
 */
import type { Task } from '../../../src/shared/index.ts';
import { writePicture } from './local-media.ts';
import { queueSongs } from './song-tasks.ts';
import type { StudioRig } from './studio-rig.ts';

export const LYRICS = [
  '[verse]',
  'Streetlights hum a silver tune',
  'Taxis paint the avenue',
  '',
  '[chorus]',
  'Hold the night, hold it close',
  'City lights are all we know',
  '',
  '[bridge]',
  'Quiet now, the engines sleep',
  '',
  '[inst]',
].join('\n');

export const SONGS = [
  ['Neon avenue', 'synthwave, night drive, analog pads'],
  ['Harbour morning', 'acoustic folk, gulls, warm guitar'],
  ['Desert echo', 'slow blues, slide guitar, dusty'],
  ['Paper lanterns', 'lo-fi hip hop, vinyl crackle, rain'],
];

/** The boards made for the pictures, and the tasks put on each. */
const BOARDS: [string, (t: Task) => boolean][] = [
  ['Portraits', (t) => t.taskType === 'face-swap'],
  ['Night drive', (t) => t.title === 'Neon avenue' || t.title === 'Paper lanterns'],
];

/** Fills the library; gives its saved tasks (in the order queued) and the three variations. */
export async function fillShotLibrary(rig: StudioRig): Promise<{ saved: Task[]; variations: Task[] }> {
  const queued = await queueSongs(
    rig,
    SONGS.map(([title, style]) => ({ title: title!, style, lyrics: LYRICS, seconds: 8 })),
  );
  const colours = [
    { r: 40, g: 110, b: 190 },
    { r: 190, g: 70, b: 60 },
    { r: 60, g: 150, b: 90 },
    { r: 150, g: 90, b: 170 },
  ];
  for (const [i, colour] of colours.entries()) {
    const target = await writePicture(rig.filesDir, `scene-${i}.png`, 640, 480, colour);
    const face = await writePicture(rig.filesDir, `face-${i}.png`, 256, 256, {
      r: 230,
      g: 180,
      b: 140,
    });
    queued.push(
      await rig.call('tasks.queue', {
        model: 'service/image-toolkit',
        taskType: 'face-swap',
        title: `Portrait ${i + 1}`,
        input: { target_image: target, swap_image: face },
      }),
      await rig.call('tasks.queue', {
        model: 'service/image-edit',
        taskType: 'image-edit',
        title: `Edit ${i + 1}: warmer light`,
        input: { image1: target, prompt: 'make the light in image1 warmer' },
      }),
    );
  }
  // three variations of one image edit (their cards say "1 of 3 · seed 1001")
  const scene = await writePicture(rig.filesDir, 'harbour.png', 640, 480, { r: 200, g: 120, b: 60 });
  rig.backend.grantDroppedFile(scene);
  const variations = await rig.call('tasks.queueBatch', {
    drafts: [1001, 1002, 1003].map((seed) => ({
      model: 'service/image-edit',
      taskType: 'image-edit',
      title: 'Harbour at dusk',
      input: { image1: scene, prompt: 'the harbour in image1 at dusk', seed },
    })),
  });
  queued.push(...variations.tasks);
  const saved: Task[] = [];
  for (const task of queued) saved.push(await rig.waitForTask(task.id, ['saved'], 30_000));
  // two boards in the navigation
  for (const [name, pick] of BOARDS) {
    const board = await rig.call('boards.create', { name });
    const ids = saved.filter((t) => pick(t)).map((t) => t.id);
    await rig.call('boards.add', { id: board.id, selection: { ids } });
  }
  return { saved, variations: variations.tasks };
}
