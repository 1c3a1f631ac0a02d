/**
 * The sandbox answers an entry in the output fields it names: a 3D entry shaped like trellis's
 * image-to-3d (not in the catalog yet) gets a GLB in `model_file`, an MP4 in `combined_video` and
 * a PNG in `no_background_image`, in that order, each a real file of its kind (sniffed from the
 * bytes the generators make), and the task record's `output` holds exactly those three fields.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMp4FactsFromBytes } from '../../src/core/inputs/mp4-facts.ts';
import { runGenerationJob } from '../../src/sandbox/generation-jobs.ts';
import type { AnswerProfile, Sandbox } from '../../src/sandbox/index.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { planOutputs } from '../../src/sandbox/output-generation.ts';
import { formAData } from '../../src/sandbox/task-forms.ts';
import type { SandboxTask } from '../../src/sandbox/task-record.ts';
import type { TaskTypeEntry } from '../../src/shared/catalog/index.ts';
import { sniffFileType } from '../../src/shared/media/index.ts';
import { pngDataUri, postTask, startTestSandbox, taskIdOf, waitForEnd } from './sandbox-http.ts';

const TRELLIS_LIKE: TaskTypeEntry = {
  id: 'trellis/image-to-3d',
  modelName: 'trellis',
  taskType: 'image-to-3d',
  family: 'other',
  makes: 'other',
  label: '3D model from a picture',
  outputKind: '3d',
  outputFields: [
    { field: 'model_file', kind: '3d' },
    { field: 'combined_video', kind: 'video' },
    { field: 'no_background_image', kind: 'image' },
  ],
  expectedSeconds: 120,
  price: { unit: 'generation', micros: 40_000 },
  sandboxOnly: false,
  input: {
    strict: false,
    fields: { image: { type: 'string', required: true, media: 'image', label: 'Picture' } },
  },
  sizeParameter: null,
  example: { image: '' },
} as TaskTypeEntry;

describe('outputs in the fields an entry names', () => {
  const input = { image: 'https://example.com/chair.png' };
  const planned = planOutputs({
    id: 'task-1',
    entry: TRELLIS_LIKE,
    taskType: TRELLIS_LIKE.taskType,
    input,
    images: [],
    audio: null,
    run: runGenerationJob,
  });

  it('makes a GLB, an MP4 and a PNG, named after their fields, each recognised by its bytes', async () => {
    expect(planned.map((p) => [p.name, p.contentType])).toEqual([
      ['model_file.glb', 'model/gltf-binary'],
      ['combined_video.mp4', 'video/mp4'],
      ['no_background_image.png', 'image/png'],
    ]);
    const kinds = [];
    for (const output of planned) kinds.push(sniffFileType(await output.produce())?.kind);
    expect(kinds).toEqual(['3d', 'video', 'image']);
  });

  it('answers with exactly those fields, without a `<kind>_url`', () => {
    const urls = planned.map((p) => `http://127.0.0.1/files/task-1/${p.name}`);
    const task = {
      id: 'task-1',
      model: 'Qubico/trellis',
      taskType: 'image-to-3d',
      entry: TRELLIS_LIKE,
      echoedInput: input,
      phase: 'completed',
      outputs: urls.map((url) => ({ url })),
      webhook: { endpoint: '', secret: '' },
      createdAt: 0,
      startsAt: 0,
      endedAt: 0,
      frozen: 0,
      consume: 0,
      error: null,
    } as unknown as SandboxTask;
    expect(formAData(task).output).toEqual({
      model_file: urls[0],
      combined_video: urls[1],
      no_background_image: urls[2],
    });
  });
});

describe.each<AnswerProfile>(['spec', 'hosted'])('a video made from a video, %s profile', (profile) => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startTestSandbox({ profile, outbound: 'loopback-only', concurrencyLimit: 50 });
  });
  afterAll(async () => {
    await sb.stop();
  });

  async function made(model: string, taskType: string, input: Record<string, unknown>) {
    const created = await postTask(sb, { model, task_type: taskType, input });
    expect(created.status, created.text).toBe(200);
    const done = await waitForEnd(sb, taskIdOf(created), 30_000);
    expect(done.json.data.status, JSON.stringify(done.json.data.error)).toBe('completed');
    const url: string = done.json.data.output.video_url;
    const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
    return { url, bytes, facts: await readMp4FactsFromBytes(bytes) };
  }

  it('an upscale of its own video is that video at twice the size, as long; a face swap keeps its size', async () => {
    const prompt = 'a kite over the dunes';
    const source = await made('Qubico/hunyuan', 'fast-txt2video', { prompt });
    expect(source.facts).toMatchObject({ width: 160, height: 96, durationSeconds: 5, frames: 50 });
    const upscaled = await made('Qubico/video-toolkit', 'upscale', { video: source.url });
    expect(upscaled.facts).toMatchObject({ width: 320, height: 192, durationSeconds: 5, frames: 50 });
    // the same scene, drawn at twice the size
    expect(upscaled.bytes.equals(generateVideoMp4({ prompt, seconds: 5, width: 320, height: 192 }))).toBe(
      true,
    );
    const swapped = await made('Qubico/video-toolkit', 'face-swap', {
      target_video: source.url,
      swap_image: await pngDataUri(40, 40, [240, 200, 160]),
    });
    expect(swapped.facts).toMatchObject({ width: 160, height: 96, durationSeconds: 5, frames: 50 });
  });
});
