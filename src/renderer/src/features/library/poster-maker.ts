/**
 * Posters of video results, drawn by the window once per video: the app has no video decoder of
 * its own (no ffmpeg; H.264 cannot be decoded in plain Node), so a hidden <video> loads the file,
 * seeks a little in (0.1 s), draws that frame to a canvas at most 320 px a side and sends it to
 * main as a PNG (`tasks.savePoster`, which checks it and keeps it as the output's thumbnail). A few
 * videos at a time (POSTERS_AT_ONCE: each holds one hidden <video> and one small canvas while it
 * is drawn, so memory stays bounded however many cards ask), the rest wait in the order asked; a
 * video that cannot be drawn is not tried again this session (its card keeps the kind's icon and
 * its length). Cards never hold a live player for this.
 */
import { invoke } from '../../bridge.ts';
import { useTasks } from '../../state/tasks-state.ts';
import { POSTERS_AT_ONCE, posterQueue } from './poster-queue.ts';

/** The poster's longest side, in pixels. */
export const POSTER_SIDE = 320;
/** How far into the video the poster is taken (the first frame may be black). */
const POSTER_AT_SECONDS = 0.1;
/** A video that has not given its frame by then is left to its icon. */
const POSTER_TIMEOUT_MS = 15_000;

const posters = posterQueue(async (job) => {
  const png = await drawPoster(job.url);
  const task = await invoke('tasks.savePoster', { id: job.taskId, index: job.index, png });
  useTasks.getState().upsert([task]);
}, POSTERS_AT_ONCE);

/**
 * Asks for the poster of a task's video output (once per session; a few drawn at a time). A
 * video that cannot be drawn keeps the kind's icon and its length on its card: nothing is lost.
 */
export function requestPoster(taskId: string, index: number, url: string): void {
  posters.request({ taskId, index, url });
}

function once(target: EventTarget, event: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`no ${event} in ${timeoutMs} ms`));
    }, timeoutMs);
    const ok = () => {
      cleanup();
      resolve();
    };
    const failed = () => {
      cleanup();
      reject(new Error('the video could not be read'));
    };
    const cleanup = () => {
      clearTimeout(timer);
      target.removeEventListener(event, ok);
      target.removeEventListener('error', failed);
    };
    target.addEventListener(event, ok);
    target.addEventListener('error', failed);
  });
}

/** The frame at 0.1 s of the video at `url`, as a PNG in Base64 (no data: prefix). */
export async function drawPoster(url: string): Promise<string> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  video.crossOrigin = 'anonymous';
  video.playsInline = true;
  try {
    const loaded = once(video, 'loadeddata', POSTER_TIMEOUT_MS);
    video.src = url;
    await loaded;
    const seeked = once(video, 'seeked', POSTER_TIMEOUT_MS);
    video.currentTime = Math.min(POSTER_AT_SECONDS, (video.duration || 0) / 2);
    await seeked;
    const scale = Math.min(1, POSTER_SIDE / Math.max(video.videoWidth, video.videoHeight, 1));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(video.videoWidth * scale));
    canvas.height = Math.max(1, Math.round(video.videoHeight * scale));
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2D canvas');
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  } finally {
    video.removeAttribute('src');
    video.load();
  }
}
