/**
 * The app's music player: one <audio> element that lives as long as the page (never attached to
 * the document, so no view change pauses it), and its state for the player bar
 * (features/player). Song cards and the gallery's Space key start a song with `playTask`.
 *
 * Previous and next walk the songs of the library list as it is loaded now, in its order. When a
 * song ends the next one starts, unless loop repeats the song.
 *
 * One media element plays at a time: the player's element and every element registered with
 * `playOneAtATime` pause the others when they start. The library detail's waveform has no
 * element of its own: it drives this player (components/WaveformPlayer.tsx).
 *
 * The volume is kept in localStorage across restarts.
 */
import { create } from 'zustand';
import { mediaKind, type TaskOutput } from '../../../shared/index.ts';
import { mediaUrl } from '../model/media-url.ts';
import type { LoadedTask } from '../model/task-status.ts';
import { useStudio } from './studio-state.ts';
import { useTasks } from './tasks-state.ts';

const VOLUME_KEY = 'player.volume';

export interface PlayerState {
  /** The song loaded in the player (playing or paused), or null when the player is closed. */
  taskId: string | null;
  /** Which of its outputs (`index`) is loaded. */
  outputIndex: number | null;
  /** Its title when it was loaded (the bar shows the current one from the tasks state). */
  title: string;
  /** The URL the audio element plays. */
  url: string | null;
  playing: boolean;
  /** Seconds into the song. */
  position: number;
  /** The song's length in seconds (0 until known). */
  duration: number;
  /** 0 to 1. */
  volume: number;
  /** Repeat the song instead of going on to the next one. */
  loop: boolean;
  error: string | null;
  /**
   * Plays a saved song from the library: from its start when it is another song than the one
   * loaded, else from where it was paused (a song already playing goes on). `output`: which saved
   * output (its `index`; the first playable one when not given, as a card plays). False when the
   * task has no such saved audio.
   */
  playTask(taskId: string, output?: number): boolean;
  /** Play or pause the loaded song. */
  toggle(): void;
  pause(): void;
  /** Jumps to a position in seconds (clamped to the song). */
  seek(seconds: number): void;
  /** The next song of the library list (the first one when the loaded song is not in it). */
  next(): void;
  /** The previous song of the library list. */
  previous(): void;
  setVolume(volume: number): void;
  setLoop(loop: boolean): void;
  /** Stops and unloads the song: the bar goes away. */
  close(): void;
}

// ---------- one media element plays at a time ----------

const playingGroup = new Set<HTMLMediaElement>();

function pauseOthers(this: HTMLMediaElement): void {
  for (const other of playingGroup) if (other !== this && !other.paused) other.pause();
}

/**
 * Makes `media` one of the elements of which only one plays: when any of them starts, the others
 * pause. Returns the function that takes it out again.
 */
export function playOneAtATime(media: HTMLMediaElement): () => void {
  playingGroup.add(media);
  media.addEventListener('play', pauseOthers);
  return () => {
    playingGroup.delete(media);
    media.removeEventListener('play', pauseOthers);
  };
}

// ---------- songs and their order ----------

/** The saved output a song plays (of a kind whose card is a sound), or null when the task has none. */
export function songOutput(task: Pick<LoadedTask, 'outputs'> | undefined): TaskOutput | null {
  const playable = (o: TaskOutput) => mediaKind(o.kind).show.card === 'sound';
  return task?.outputs.find((o) => playable(o) && o.state === 'saved' && o.path !== null) ?? null;
}

/**
 * The song before (`step` -1) or after (+1) `current` among the playable songs of `ids`, in that
 * order; null when there is none. When `current` is not in `ids`, "after" is the first song.
 */
export function neighbourSong(
  ids: readonly string[],
  byId: ReadonlyMap<string, LoadedTask>,
  current: string | null,
  step: 1 | -1,
): string | null {
  const at = current === null ? -1 : ids.indexOf(current);
  if (at < 0 && step < 0) return null;
  for (let i = at + step; i >= 0 && i < ids.length; i += step) {
    const id = ids[i]!;
    if (id !== current && songOutput(byId.get(id))) return id;
  }
  return null;
}

function neighbourOfLoaded(step: 1 | -1): string | null {
  const { gallery, byId } = useTasks.getState();
  return neighbourSong(gallery.ids, byId, usePlayer.getState().taskId, step);
}

// ---------- the audio element ----------

function readVolume(): number {
  try {
    const stored = localStorage.getItem(VOLUME_KEY);
    const value = stored === null ? Number.NaN : Number(stored);
    return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1;
  } catch {
    return 1;
  }
}

function writeVolume(volume: number): void {
  try {
    localStorage.setItem(VOLUME_KEY, String(volume));
  } catch {
    // storage refused (full or disabled): the volume holds for this session
  }
}

/** What a failed load or playback means to the user, by MediaError code. */
export function mediaErrorText(code: number | undefined): string {
  switch (code) {
    case 2:
      return 'Could not play this song: its file could not be read.';
    case 3:
      return 'Could not play this song: its file is damaged.';
    case 4:
      return 'Could not play this song: its file is missing or not a sound this app can play.';
    default:
      return 'Could not play this song.';
  }
}

let element: HTMLAudioElement | null = null;

/** The player's audio element, made on first use (the bar's waveform draws and seeks it). */
export function playerAudio(): HTMLAudioElement {
  if (element) return element;
  const audio = document.createElement('audio');
  audio.preload = 'auto';
  audio.volume = usePlayer.getState().volume;
  const set = usePlayer.setState;
  // Playback that runs to the end pauses with `ended` set, then ends; a seek to the end while
  // paused ends without that pause, and does not go on to the next song.
  let playedToEnd = false;
  audio.addEventListener('play', () => set({ playing: true, error: null }));
  audio.addEventListener('pause', () => {
    playedToEnd = audio.ended;
    set({ playing: false });
  });
  audio.addEventListener('timeupdate', () => set({ position: audio.currentTime }));
  const takeDuration = () => {
    if (Number.isFinite(audio.duration) && audio.duration > 0) set({ duration: audio.duration });
  };
  audio.addEventListener('loadedmetadata', takeDuration);
  audio.addEventListener('durationchange', takeDuration);
  audio.addEventListener('ended', () => {
    set({ playing: false, position: audio.currentTime });
    if (!playedToEnd) return;
    playedToEnd = false;
    const next = neighbourOfLoaded(1);
    if (next) usePlayer.getState().playTask(next);
  });
  audio.addEventListener('error', () => {
    if (!audio.getAttribute('src')) return;
    set({ playing: false, error: mediaErrorText(audio.error?.code) });
  });
  playOneAtATime(audio);
  element = audio;
  return audio;
}

function start(audio: HTMLAudioElement): void {
  audio.play().catch((err: unknown) => {
    // a newer source or a pause before playback began is not a failure
    if (err instanceof DOMException && err.name === 'AbortError') return;
    // a failed load says why on the element's 'error' event
    if (audio.error) return;
    usePlayer.setState({ playing: false, error: `Could not play this song: ${String(err)}` });
  });
}

/** The player with no song: at start and after Close. */
const NOTHING_PLAYING = {
  taskId: null,
  outputIndex: null,
  title: '',
  url: null,
  playing: false,
  position: 0,
  duration: 0,
  error: null,
} satisfies Partial<PlayerState>;

export const usePlayer = create<PlayerState>()((set, get) => ({
  ...NOTHING_PLAYING,
  volume: readVolume(),
  loop: false,

  playTask: (taskId, index) => {
    const task = useTasks.getState().byId.get(taskId);
    const output =
      index === undefined
        ? songOutput(task)
        : (task?.outputs.find((o) => o.index === index && o.state === 'saved' && o.path !== null) ?? null);
    const base = useStudio.getState().appInfo?.mediaBaseUrl;
    if (!task || !output?.path || !base) return false;
    const audio = playerAudio();
    const same = get().taskId === taskId && (index === undefined || get().outputIndex === output.index);
    if (!same || !audio.getAttribute('src')) {
      audio.src = mediaUrl(base, output.path);
      audio.loop = get().loop;
      set({
        taskId,
        outputIndex: output.index,
        title: task.title,
        // as the element resolved it (the form its currentSrc takes)
        url: audio.src,
        position: 0,
        duration: output.durationSeconds ?? 0,
        error: null,
      });
    }
    if (audio.paused) start(audio);
    return true;
  },

  toggle: () => {
    if (get().taskId === null) return;
    const audio = playerAudio();
    if (audio.paused) start(audio);
    else audio.pause();
  },

  pause: () => {
    element?.pause();
  },

  seek: (seconds) => {
    if (get().taskId === null) return;
    const audio = playerAudio();
    const end = Number.isFinite(audio.duration) ? audio.duration : get().duration;
    const time = Math.min(Math.max(0, seconds), end || 0);
    audio.currentTime = time;
    set({ position: time });
  },

  next: () => {
    const id = neighbourOfLoaded(1);
    if (id) get().playTask(id);
  },

  previous: () => {
    const id = neighbourOfLoaded(-1);
    if (id) get().playTask(id);
  },

  setVolume: (volume) => {
    const value = Math.min(1, Math.max(0, volume));
    if (element) element.volume = value;
    writeVolume(value);
    set({ volume: value });
  },

  setLoop: (loop) => {
    if (element) element.loop = loop;
    set({ loop });
  },

  close: () => {
    if (element) {
      element.pause();
      element.removeAttribute('src');
      element.load();
    }
    set(NOTHING_PLAYING);
  },
}));
