/**
 * Fills a library folder with many finished tasks, straight into its SQLite database through
 * the library store (the same code the engine uses), in big transactions: songs, face swaps,
 * image edits and generated pictures, each `saved` with one output. A few real thumbnail and
 * output files are made with sharp and shared by all image tasks, so the grid shows pictures.
 * Used by the UI benchmarks before the backend opens the library. The `video-3d` mix fills
 * videos (each with its poster and length, as the window leaves them once drawn) and Trellis 3D
 * models (a GLB and its picture) instead.
 *
 * Filling 100,000 tasks through the store takes about half a minute on a slow machine, so a
 * filled library is kept as a template in `out/bench-cache/` (named by size, schema version and
 * fill version) and copied for each run; under a newer schema, the store migrates the newest
 * older template of the same fill instead of filling again.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { LibraryStore, type NewTask, SCHEMA_VERSION } from '../../../src/core/store/index.ts';
import { MODELS, type OutputKind } from '../../../src/shared/index.ts';
import { REPO_ROOT } from './renderer-build.ts';

const KINDS = [
  { model: MODELS.audio, taskType: 'txt2audio', label: 'Song', kind: 'audio' as OutputKind },
  { model: MODELS.imageToolkit, taskType: 'face-swap', label: 'Face swap', kind: 'image' as OutputKind },
  { model: MODELS.imageEdit, taskType: 'image-edit', label: 'Image edit', kind: 'image' as OutputKind },
  { model: MODELS.imageGen, taskType: 'txt2img', label: 'Picture', kind: 'image' as OutputKind },
] as const;

/** Which tasks a fill makes: pictures and songs, or videos and 3D models. */
export type FillMix = 'pictures' | 'video-3d';

const VIDEO_3D_KINDS = [
  { model: MODELS.video, taskType: 'txt2video', label: 'Video', kind: 'video' as OutputKind },
  { model: 'service/trellis', taskType: 'text-to-3d', label: '3D model', kind: '3d' as OutputKind },
] as const;

/** Bump when the fill changes, so old templates are not reused. */
const FILL_VERSION = 2;

/**
 * How long each filled task took at the service (created → ended). The engine's first fetch of a
 * new task waits for 90% of the fastest similar past task (polling-schedule.ts), so at 20 s a
 * browser test that queued a song after filling waited about 18 s before the engine even
 * looked; 1 s is still longer than the rigs' sandbox (time scale 0.02) takes for a song.
 */
const SERVICE_MS = 1_000;

const WORDS = ['amber', 'river', 'neon', 'forest', 'velvet', 'echo', 'harbor', 'glass', 'summer', 'drift'];

export interface FillResult {
  tasks: number;
  seconds: number;
}

/** Writes `count` distinct small pictures and returns their library-relative paths. */
async function writeSharedPictures(
  libraryDir: string,
  count: number,
): Promise<{ image: string; thumb: string }[]> {
  const dir = join(libraryDir, 'bench-media');
  await mkdir(dir, { recursive: true });
  const out: { image: string; thumb: string }[] = [];
  for (let i = 0; i < count; i++) {
    const background = { r: (i * 53) % 256, g: (i * 97 + 80) % 256, b: (i * 31 + 160) % 256 };
    const picture = sharp({ create: { width: 512, height: 512, channels: 3, background } });
    await picture
      .clone()
      .png()
      .toFile(join(dir, `image-${i}.png`));
    await picture
      .clone()
      .resize(256, 256)
      .webp({ quality: 70 })
      .toFile(join(dir, `thumb-${i}.webp`));
    out.push({ image: `bench-media/image-${i}.png`, thumb: `bench-media/thumb-${i}.webp` });
  }
  await writeFile(join(dir, 'README.txt'), 'Pictures shared by the benchmark tasks.\n');
  return out;
}

/**
 * Inserts `count` saved tasks (newest last), `batch` per transaction. Every 9th task is a
 * favourite. Returns how long it took.
 */
export async function fillLibrary(
  libraryDir: string,
  count: number,
  batch = 10_000,
  mix: FillMix = 'pictures',
): Promise<FillResult> {
  const started = performance.now();
  const pictures = await writeSharedPictures(libraryDir, 12);
  const insert = mix === 'pictures' ? insertSaved : insertVideoOr3d;
  const store = LibraryStore.open(libraryDir);
  try {
    const baseMs = Date.parse('2025-01-01T00:00:00Z');
    for (let from = 0; from < count; from += batch) {
      store.transaction(() => {
        for (let i = from; i < Math.min(count, from + batch); i++) insert(store, i, baseMs, pictures);
      });
    }
    store.checkpoint();
  } finally {
    store.close();
  }
  return { tasks: count, seconds: (performance.now() - started) / 1000 };
}

function insertSaved(
  store: LibraryStore,
  i: number,
  baseMs: number,
  pictures: readonly { image: string; thumb: string }[],
): void {
  const kind = KINDS[i % KINDS.length] as (typeof KINDS)[number];
  const words = [
    WORDS[i % WORDS.length],
    WORDS[(i * 7) % WORDS.length],
    WORDS[(i * 3 + 1) % WORDS.length],
  ].join(' ');
  const input: Record<string, unknown> =
    kind.kind === 'audio'
      ? { style_prompt: `${words} pop`, lyrics: `[verse]\n${words}\n[chorus]\n${words}`, duration: 30 }
      : { prompt: `${words} portrait` };
  const createdAt = new Date(baseMs + i * 60_000).toISOString();
  const task: NewTask = {
    model: kind.model,
    taskType: kind.taskType,
    title: `${kind.label} ${i + 1}: ${words}`,
    request: { model: kind.model, task_type: kind.taskType, input },
    estimateMicros: 10_000,
    expectedMs: SERVICE_MS,
    createdAt,
    favorite: i % 9 === 0,
  };
  const saved = store.insertTask(task);
  const picture = pictures[i % pictures.length] as { image: string; thumb: string };
  store.replaceOutputs(saved.id, [
    { kind: kind.kind, url: `https://files.example.test/${saved.id}/out`, field: 'output' },
  ]);
  store.updateOutput(saved.id, 0, {
    state: 'saved',
    path: kind.kind === 'audio' ? null : picture.image,
    thumbPath: kind.kind === 'audio' ? null : picture.thumb,
    mime: kind.kind === 'audio' ? 'audio/wav' : 'image/png',
    size: 1000,
    width: kind.kind === 'audio' ? null : 512,
    height: kind.kind === 'audio' ? null : 512,
    durationSeconds: kind.kind === 'audio' ? 30 : null,
  });
  markSaved(store, saved.id, i, baseMs, createdAt);
}

/**
 * A saved video (its poster a shared thumbnail, 5 s long) or a Trellis 3D model (a GLB, which
 * has no thumbnail, and its picture): the file paths are never read by the gallery, which
 * shows only posters and pictures.
 */
function insertVideoOr3d(
  store: LibraryStore,
  i: number,
  baseMs: number,
  pictures: readonly { image: string; thumb: string }[],
): void {
  const kind = VIDEO_3D_KINDS[i % VIDEO_3D_KINDS.length] as (typeof VIDEO_3D_KINDS)[number];
  const words = [WORDS[i % WORDS.length], WORDS[(i * 7) % WORDS.length]].join(' ');
  const createdAt = new Date(baseMs + i * 60_000).toISOString();
  const input =
    kind.kind === 'video' ? { prompt: `${words} at dusk`, duration: 5 } : { prompt: `a ${words} boat` };
  const saved = store.insertTask({
    model: kind.model,
    taskType: kind.taskType,
    title: `${kind.label} ${i + 1}: ${words}`,
    request: { model: kind.model, task_type: kind.taskType, input },
    estimateMicros: 40_000,
    expectedMs: SERVICE_MS,
    createdAt,
    favorite: i % 9 === 0,
  });
  const picture = pictures[i % pictures.length] as { image: string; thumb: string };
  const url = `https://files.example.test/${saved.id}`;
  if (kind.kind === 'video') {
    store.replaceOutputs(saved.id, [{ kind: 'video', url: `${url}/video.mp4`, field: 'video_url' }]);
    store.updateOutput(saved.id, 0, {
      state: 'saved',
      path: 'bench-media/video.mp4',
      thumbPath: picture.thumb,
      mime: 'video/mp4',
      size: 100_000,
      width: 848,
      height: 480,
      durationSeconds: 5,
    });
  } else {
    store.replaceOutputs(saved.id, [
      { kind: '3d', url: `${url}/model_file.glb`, field: 'model_file' },
      { kind: 'image', url: `${url}/no_background_image.png`, field: 'no_background_image' },
    ]);
    store.updateOutput(saved.id, 0, {
      state: 'saved',
      path: 'bench-media/model.glb',
      mime: 'model/gltf-binary',
      size: 50_000,
    });
    store.updateOutput(saved.id, 1, {
      state: 'saved',
      path: picture.image,
      thumbPath: picture.thumb,
      mime: 'image/png',
      size: 1000,
      width: 512,
      height: 512,
    });
  }
  markSaved(store, saved.id, i, baseMs, createdAt);
}

function markSaved(store: LibraryStore, id: string, i: number, baseMs: number, createdAt: string): void {
  const endedAt = new Date(baseMs + i * 60_000 + SERVICE_MS).toISOString();
  store.transition(id, 'saved', {
    patch: {
      remoteId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      remoteStatus: 'completed',
      submittedAt: createdAt,
      startedAt: createdAt,
      endedAt,
      savedAt: endedAt,
      usage: { type: 'point', frozen: 10_000, consume: 10_000 },
    },
  });
}

/**
 * Copies a library of `count` saved tasks into `libraryDir` (which must be empty), making the
 * template first when there is none. Returns how the library was obtained.
 */
export async function copyFilledLibrary(
  libraryDir: string,
  count: number,
  log: (line: string) => void = console.log,
  mix: FillMix = 'pictures',
): Promise<{ fromCache: boolean; fillSeconds: number | null }> {
  const nameAt = (schema: number) =>
    `library-${count}-s${schema}-f${FILL_VERSION}${mix === 'pictures' ? '' : `-${mix}`}`;
  const template = join(REPO_ROOT, 'out/bench-cache', nameAt(SCHEMA_VERSION));
  let fillSeconds: number | null = null;
  const fromCache = existsSync(join(template, '.complete'));
  if (!fromCache) {
    const building = `${template}.building-${process.pid}`;
    await rm(building, { recursive: true, force: true });
    const older = [...Array(SCHEMA_VERSION).keys()]
      .reverse()
      .map((schema) => join(REPO_ROOT, 'out/bench-cache', nameAt(schema)))
      .find((dir) => existsSync(join(dir, '.complete')));
    if (older) {
      // the same fill under an older schema: the store migrates it, as it would a user's library
      const started = performance.now();
      await cp(older, building, { recursive: true, filter: (src) => !src.endsWith('.complete') });
      LibraryStore.open(building).close();
      fillSeconds = (performance.now() - started) / 1000;
      log(`library: ${older} migrated by the store in ${fillSeconds.toFixed(1)} s`);
    } else {
      await mkdir(building, { recursive: true });
      log(`library: filling ${count.toLocaleString('en')} tasks through the store (kept in ${template})`);
      fillSeconds = (await fillLibrary(building, count, 10_000, mix)).seconds;
      log(`library: filled in ${fillSeconds.toFixed(1)} s`);
    }
    await writeFile(join(building, '.complete'), new Date().toISOString());
    await rm(template, { recursive: true, force: true });
    await rename(building, template);
  }
  await cp(template, libraryDir, { recursive: true, filter: (src) => !src.endsWith('.complete') });
  return { fromCache, fillSeconds };
}
