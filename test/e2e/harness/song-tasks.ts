/**
 * Songs a test needs in the library, queued through the backend the way the composer sends them
 * (`tasks.queue` on the song model) and run by the real engine and sandbox.
 */
import type { Task } from '../../../src/shared/index.ts';
import { waitUntil } from '../../support/wait-until.ts';
import type { StudioRig } from './studio-rig.ts';

export interface SongSpec {
  title: string;
  seconds: number;
  /** `<title>, calm piano` when not given. */
  style?: string;
  lyrics?: string;
  /** `service/ace-step` when not given. */
  model?: string;
}

/** One task per song, in the songs' order. */
type SongTasks<Songs extends readonly unknown[]> = { [K in keyof Songs]: Task };

/**
 * Queues the songs one after the other, so the library (newest first) shows them in the reverse
 * order; returns them as queued, not waited for.
 */
export async function queueSongs<const Songs extends readonly SongSpec[]>(
  rig: StudioRig,
  songs: Songs,
): Promise<SongTasks<Songs>> {
  const queued: Task[] = [];
  for (const song of songs) {
    queued.push(
      await rig.call('tasks.queue', {
        model: song.model ?? 'service/ace-step',
        taskType: 'txt2audio',
        title: song.title,
        input: {
          style_prompt: song.style ?? `${song.title}, calm piano`,
          ...(song.lyrics === undefined ? {} : { lyrics: song.lyrics }),
          duration: song.seconds,
        },
      }),
    );
  }
  return queued as SongTasks<Songs>;
}

/** Queues the songs (`queueSongs`) and waits until all are saved. */
export async function saveSongs<const Songs extends readonly SongSpec[]>(
  rig: StudioRig,
  songs: Songs,
): Promise<SongTasks<Songs>> {
  const saved: Task[] = [];
  for (const task of await queueSongs(rig, songs))
    saved.push(await rig.waitForTask(task.id, ['saved'], 30_000));
  return saved as SongTasks<Songs>;
}

/** One song per title, each `seconds` long with the default style, saved (`saveSongs`). */
export function makeSongs<const Titles extends readonly string[]>(
  rig: StudioRig,
  titles: Titles,
  seconds: number,
): Promise<SongTasks<Titles>> {
  return saveSongs(
    rig,
    titles.map((title) => ({ title, seconds })),
  ) as Promise<SongTasks<Titles>>;
}

/**
 * The song saved (`saveSongs`), then an extend of its first output (`{ $output }`, 5 s more at
 * the end, titled `<title> (extended)`) saved: lineage from a result.
 */
export async function makeExtendedSong(
  rig: StudioRig,
  song: SongSpec,
): Promise<{ song: Task; extended: Task }> {
  const [saved] = await saveSongs(rig, [song]);
  const extend = await rig.call('tasks.queue', {
    model: song.model ?? 'service/ace-step',
    taskType: 'extend',
    title: `${song.title} (extended)`,
    input: { audio: { $output: { taskId: saved.id, index: 0 } }, right_extend_duration: 5 },
    acceptUnknownPrice: true,
  });
  return { song: saved, extended: await rig.waitForTask(extend.id, ['saved']) };
}

/** Queues the song while the service fails every task, and waits until it has failed. */
export async function makeFailedSong(rig: StudioRig, song: SongSpec): Promise<Task> {
  await rig.setFaults({ taskFailureRate: 1 });
  const [queued] = await queueSongs(rig, [song]);
  const failed = await rig.waitForTask(queued.id, ['failed']);
  await rig.setFaults({});
  return failed;
}

/**
 * Queues the song while the service drops every create's answer (it received and billed the song;
 * the app cannot know) and has no task history to settle it from, and waits until it is uncertain.
 */
export async function makeUncertainSong(rig: StudioRig, song: SongSpec): Promise<Task> {
  await rig.setFaults({ applyTo: 'create', resetAfterBodyRate: 1, noTaskHistory: true });
  const [queued] = await queueSongs(rig, [song]);
  await rig.waitForTask(queued.id, ['uncertain']);
  const uncertain = await historyLooked(rig, queued.id);
  await rig.setFaults({});
  return uncertain;
}

/**
 * Waits until the engine has looked for an uncertain task in the service's history and found
 * none to read (a service without one): only then may a test give the service its history back,
 * else the engine's first look finds the task and adopts it.
 */
export async function historyLooked(rig: StudioRig, id: string): Promise<Task> {
  return waitUntil(
    async () => {
      const task = await rig.call('tasks.get', { id });
      return task?.settlement?.outcome === 'unreachable' ? task : null;
    },
    `task ${id} to be looked for in the service's history`,
    20_000,
  );
}
