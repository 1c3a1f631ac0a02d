/**
 * A video result through the call handler and the sandbox over real HTTP: saved with its size
 * and length read from its MP4 boxes; its poster, drawn by the window, checked (a PNG by its
 * bytes, at most 512 KB and 640 px a side, a saved video's output only) and kept beside it as
 * the output's thumbnail, served as media; exported and dragged out like any result.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '../../src/shared/index.ts';
import { closeBackendRig, type Harness, openBackendRig, SONG, savedTask } from './backend-fixtures.ts';

let dir: string;
let h: Harness;
let video: Task;
let song: Task;

async function png(width: number, height: number): Promise<string> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  return bytes.toString('base64');
}

beforeAll(async () => {
  ({ dir, h } = await openBackendRig('mts-video-results-'));
  const queued = await h.ok<Task>('tasks.queue', {
    model: 'service/video-gen',
    taskType: 'txt2video',
    input: { prompt: 'waves rolling onto a beach', duration: 2 },
  });
  const queuedSong = await h.ok<Task>('tasks.queue', SONG);
  video = await savedTask(h, queued.id, 'the video to be saved');
  song = await savedTask(h, queuedSong.id, 'the song to be saved');
});
afterAll(() => closeBackendRig({ dir, h }));

describe('a video result', () => {
  it('is saved as an MP4 with its size and length, and no poster yet', () => {
    const output = video.outputs[0];
    expect(output).toMatchObject({ kind: 'video', mime: 'video/mp4', thumbPath: null });
    expect(output?.durationSeconds).toBeCloseTo(2, 1);
    expect(output?.width).toBeGreaterThan(0);
    expect(output?.height).toBeGreaterThan(0);
  });

  it('refuses a poster that is not a small PNG, or for what is not a video, in words', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ png: Buffer.from('GIF89a not a png at all').toString('base64') }, 'png', /not a PNG image/],
      [{ png: await png(1280, 720) }, 'png', /1280 × 720 px; its longest side must be 1 to 640 px/],
      [
        {
          png: Buffer.alloc(600 * 1024, 1)
            .toString('base64')
            .slice(0, 699_996),
        },
        'png',
        /KB; at most 512 KB/,
      ],
      [{ png: 'not base64!' }, 'png', /the poster is not Base64/],
      [{ index: 3, png: await png(32, 18) }, 'index', /output 3 of this task is not saved/],
    ];
    for (const [args, field, message] of cases) {
      const r = await h.call('tasks.savePoster', { id: video.id, index: 0, ...args });
      expect(r.ok, JSON.stringify(args).slice(0, 80)).toBe(false);
      if (!r.ok) {
        expect(r.error.field).toBe(field);
        expect(r.error.message).toMatch(message);
      }
    }
    const onSong = await h.call('tasks.savePoster', { id: song.id, index: 0, png: await png(32, 18) });
    expect(onSong.ok).toBe(false);
    if (!onSong.ok) expect(onSong.error.message).toMatch(/is a sound: only a video has a poster/);
    const noTask = await h.call('tasks.savePoster', { id: 'no-such-task', index: 0, png: await png(32, 18) });
    expect(noTask.ok).toBe(false);
    if (!noTask.ok) expect(noTask.error).toMatchObject({ kind: 'not-found', field: 'id' });
    expect((await h.ok<Task>('tasks.get', { id: video.id })).outputs[0]?.thumbPath).toBeNull();
  });

  it('keeps the poster the window drew beside the video, once, served as media', async () => {
    const poster = await png(320, 180);
    const task = await h.ok<Task>('tasks.savePoster', { id: video.id, index: 0, png: poster });
    const thumb = task.outputs[0]?.thumbPath ?? '';
    expect(thumb).toMatch(/\/poster-1\.png$/);
    const file = h.backend.resolveMediaPath(`/${thumb}`);
    expect(file).not.toBeNull();
    expect(readFileSync(file ?? '')).toEqual(Buffer.from(poster, 'base64'));
    // a second poster (another window's) keeps the first
    const again = await h.ok<Task>('tasks.savePoster', { id: video.id, index: 0, png: await png(64, 36) });
    expect(again.outputs[0]?.thumbPath).toBe(thumb);
    expect(readFileSync(file ?? '')).toEqual(Buffer.from(poster, 'base64'));
  });

  it('is exported and dragged out like any result', async () => {
    h.dialogs.folder = join(dir, 'video-export');
    const result = await h.ok<{ tasks: { files: string[] }[] }>('tasks.export', { ids: [video.id] });
    expect(result.tasks[0]?.files.some((f) => f.endsWith('.mp4'))).toBe(true);
    await h.ok('tasks.dragOut', { id: video.id, index: 0 });
    const drag = h.shell.calls.filter((c) => c.op === 'startDrag').at(-1);
    expect(drag?.args[0]).toMatch(/\.mp4$/);
    expect(existsSync(drag?.args[0] ?? '')).toBe(true);
  });
});
