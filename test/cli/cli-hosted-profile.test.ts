/**
 * The command line against a sandbox that answers like the real hosted service
 * (`media-task sandbox --profile hosted`), with the CLI's defaults: vendor Qubico, the base URL
 * pasted as the docs show it (…/api/v1). Real HTTP, a real library folder; the commands are
 * `main` called in this process (`callCliMain`), but for the exit codes of a refused key and of a
 * price asked about, run as a user would (`runCli`, a child process). (A launch per command made
 * this file take 34 s of a fresh clone's run.)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryStore } from '../../src/core/store/index.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { API_KEY } from '../engine/engine-fixtures.ts';
import { writePicture } from '../support/pictures.ts';
import { type CliResult, callCliMain, closeCliRig, openCliRig, runCli } from './cli-runner.ts';

let dir: string;
let sb: Sandbox;

beforeAll(async () => {
  ({ dir, sb } = await openCliRig('mts-cli-hosted-', { profile: 'hosted' }));
  await writePicture(join(dir, 'me.jpg'), 240, 200, 'jpeg');
  await writePicture(join(dir, 'face.png'), 96, 96, 'png');
  await writePicture(join(dir, 'room.png'), 200, 150, 'png');
});
afterAll(() => closeCliRig({ dir, sb }));

/** A face swap of the face in face.png onto me.jpg, waited for. */
const FACE_SWAP = ['create', 'face-swap', '--target', 'me.jpg', '--swap', 'face.png', '--wait'];

const lib = () => join(dir, 'lib');

/** `media-task ...args` in `dir`: `main` called in this process. */
function call(args: string[], env: Record<string, string>): Promise<CliResult> {
  return callCliMain(dir, args, env);
}

function run(args: string[], env: Record<string, string> = {}, launch = call): Promise<CliResult> {
  // the base URL as the docs' curl lines show it, with /api/v1 on the end
  return launch(['--library', lib(), '--json', ...args], {
    MEDIA_TASK_API_KEY: API_KEY,
    MEDIA_TASK_BASE_URL: `${sb.url}/api/v1`,
    MEDIA_TASK_UPLOAD_URL: `${sb.url}/api/ephemeral_resource`,
    ...env,
  });
}

/** `media-task ...args` in `dir` as a user runs it: a child process. */
function launched(args: string[], env: Record<string, string>): Promise<CliResult> {
  return runCli(dir, args, env);
}

function firstTask(r: CliResult) {
  expect(r.stdout, r.stderr).not.toBe('');
  return JSON.parse(r.stdout).tasks[0];
}

describe('media-task against a sandbox answering like the hosted service', () => {
  it('says it dropped the pasted /api/v1, and sends a song as Qubico/ace-step with its negative prompt renamed', async () => {
    const r = await run([
      'create',
      'audio',
      '--style',
      'lofi piano',
      '--negative',
      'drums',
      '--duration',
      '5',
      '--wait',
    ]);
    expect(r.stderr).toMatch(/ends in \/api\/v1, which the app adds itself/);
    expect(r.code).toBe(0);
    const task = firstTask(r);
    expect(task.state).toBe('saved');
    expect(task.model).toBe('Qubico/ace-step');
    // the real service's name for it; empty lyrics become an instrumental
    expect(task.request.input).toMatchObject({ negative_style_prompt: 'drums', lyrics: '[inst]' });
    expect(task.request.input).not.toHaveProperty('negative_prompt');
    expect(existsSync(join(lib(), task.outputs[0].path))).toBe(true);
    const billed = sb.ledger().find((e) => e.taskId === task.remoteId);
    expect(billed?.model).toBe('Qubico/ace-step');
    // what it was billed, in micro-dollars, beside the cost's detail: 5 s, 2,500 llm units = $0.0025
    const got = JSON.parse((await run(['get', task.id])).stdout);
    expect(got.costMicros).toBe(2_500);
    expect(got.task.cost).toMatchObject({ micros: 2_500, flagged: false });
  });

  it('swaps a face from two local files, uploading them first', async () => {
    const r = await run(FACE_SWAP);
    expect(r.code, r.stderr).toBe(0);
    const task = firstTask(r);
    expect(task).toMatchObject({ state: 'saved', model: 'Qubico/image-toolkit' });
    const { events } = JSON.parse((await run(['get', task.id])).stdout);
    const sent = events.find((e: { to: string }) => e.to === 'submitting');
    expect(sent.detail).toBe('target_image uploaded; swap_image uploaded');
    expect(sb.ledger().some((e) => e.taskId === task.remoteId)).toBe(true);
    // the same pictures again: the uploads are reused, not sent again
    const again = await run(FACE_SWAP);
    const second = JSON.parse((await run(['get', firstTask(again).id])).stdout);
    const resent = second.events.find((e: { to: string }) => e.to === 'submitting');
    expect(resent.detail).toBe('target_image reuses an earlier upload; swap_image reuses an earlier upload');
    expect(second.task.state).toBe('saved');
  });

  it('edits an image with the image-edit model the hosted service names qwen-image, or another given by --model', async () => {
    const r = await run([
      'create',
      'image-edit',
      '--image1',
      'room.png',
      '--prompt',
      'paint it blue',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(firstTask(r)).toMatchObject({ state: 'saved', model: 'Qubico/qwen-image' });
    const other = await run([
      'create',
      'image-edit',
      '--model',
      'service/qwen-image',
      '--image1',
      'room.png',
      '--prompt',
      'paint it red',
      '--wait',
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(firstTask(other)).toMatchObject({ state: 'saved', model: 'service/qwen-image' });
  });

  it('ends a create refused inside an HTTP 200 as refused with the service words, never uncertain', async () => {
    sb.setFaults({
      bodyRefusalRate: 1,
      bodyRefusalCode: 400,
      bodyRefusalMessage: 'Invalid request parameters',
    });
    try {
      const r = await run(['create', 'audio', '--style', 'refused', '--duration', '5', '--wait']);
      const task = firstTask(r);
      expect(task.state).toBe('failed');
      expect(task.error.message).toContain('Invalid request parameters');
      expect(r.code).toBe(4);
      expect(sb.ledger().some((e) => e.taskId === task.remoteId)).toBe(false);
    } finally {
      sb.setFaults({});
    }
  });

  it('names the plan when the service answers 403, and sends the next task', async () => {
    sb.setFaults({ planRefusedTaskTypes: ['face-swap'] });
    try {
      const refused = await run(FACE_SWAP);
      const task = firstTask(refused);
      expect(task.state).toBe('failed');
      expect(task.error.message).toMatch(/plan/i);
      expect(task.error.message).toContain('Insufficient plan level');
      expect(refused.code).toBe(6);
      const next = await run([
        'create',
        'audio',
        '--style',
        'after the refusal',
        '--duration',
        '5',
        '--wait',
      ]);
      expect(firstTask(next).state).toBe('saved');
    } finally {
      sb.setFaults({});
    }
  });

  it('prints the balance, which went down by what the tasks cost', async () => {
    const r = await run(['account']);
    expect(r.code, r.stderr).toBe(0);
    const account = JSON.parse(r.stdout);
    expect(account.balanceUsd).toBeGreaterThan(0);
    expect(account.balanceUsd).toBeLessThan(10);
    // the hosted profile's credits are points of 1e-7 USD, as the real service's examples fit
    expect(account.credits).toBe(Math.round(account.balanceUsd * 10_000_000));
    const human = await call(['account'], {
      MEDIA_TASK_API_KEY: API_KEY,
      MEDIA_TASK_BASE_URL: sb.url,
    });
    expect(human.stdout).toMatch(/^Balance for sandbox at http:\/\/127\.0\.0\.1:\d+: \$\d+\.\d\d/);
  });

  it('says the key was refused when reading the balance with a wrong key', async () => {
    const r = await run(['account'], { MEDIA_TASK_API_KEY: 'wrong-key-0123456789' }, launched);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/refused the API key/);
    expect(r.stderr).not.toContain('wrong-key-0123456789');
  });
  it('creates a Flux txt2img by model and task type: checked against its own rules, priced per image x batch_size, PNGs saved', async () => {
    const input = (name: string, value: Record<string, unknown>) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return [
        'create',
        'raw',
        '--model',
        'Qubico/flux1-schnell',
        '--task-type',
        'txt2img',
        '--input-json',
        name,
      ];
    };
    // the sandbox's own image model has no guidance_scale rule: Flux's does
    const tooStrong = await run(input('flux-bad.json', { prompt: 'a fox', guidance_scale: 9 }));
    expect(tooStrong.code).toBe(2);
    // the rule in the catalog's words, the composer's (the sandbox, the service's stand-in, says it its own way)
    expect(tooStrong.stderr).toContain('guidance_scale: Guidance must be from 1.5 to 5');
    const tooBig = await run(input('flux-big.json', { prompt: 'a fox', width: 1536, height: 1024 }));
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain(
      'width: Width x height must be at most 1,048,576 pixels (1536 x 1024 is 1,572,864)',
    );
    const r = await run([
      ...input('flux.json', { prompt: 'a fox in the snow', width: 512, height: 384, batch_size: 2 }),
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const task = firstTask(r);
    expect(task).toMatchObject({
      state: 'saved',
      model: 'Qubico/flux1-schnell',
      entryId: 'flux1-schnell/txt2img',
    });
    expect(task.estimateMicros).toBe(3000);
    expect(task.outputs.map((o: { kind: string; field: string }) => [o.kind, o.field])).toEqual([
      ['image', 'output.image_url'],
      ['image', 'output.image_urls[1]'],
    ]);
    for (const output of task.outputs) {
      const bytes = readFileSync(join(lib(), output.path));
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect([output.width, output.height]).toEqual([512, 384]);
    }
  });

  it('creates a video upscale by model and task type from {video: <mp4 URL>}: no "image is required", an MP4 saved from video_url, its price asked first', async () => {
    writeFileSync(join(dir, 'upscale.json'), JSON.stringify({ video: 'https://example.com/clips/walk.mp4' }));
    const args = ['create', 'raw', '--model', 'Qubico/video-toolkit', '--task-type', 'upscale'];
    const r = await run([...args, '--input-json', 'upscale.json', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    const task = firstTask(r);
    expect(task).toMatchObject({
      state: 'saved',
      model: 'Qubico/video-toolkit',
      entryId: 'video-toolkit/upscale',
    });
    // $0.0003 per frame, and the frames of a video at a URL are not known here: never $0
    expect(task.estimateMicros).toBeNull();
    expect(task.outputs).toHaveLength(1);
    expect(task.outputs[0]).toMatchObject({ kind: 'video', field: 'output.video_url' });
    const bytes = readFileSync(join(lib(), task.outputs[0].path));
    expect(bytes.subarray(4, 8).toString()).toBe('ftyp');
    // under a budget, a task without a known price is asked about first
    const budgeted = join(dir, 'lib-budget');
    const library = ['--library', budgeted];
    const store = LibraryStore.open(budgeted);
    store.setSetting('budgetMicros', 5_000_000);
    store.close();
    const asked = await launched([...library, ...args, '--input-json', 'upscale.json'], {
      MEDIA_TASK_API_KEY: API_KEY,
      MEDIA_TASK_BASE_URL: sb.url,
    });
    expect(asked.code).toBe(2);
    expect(asked.stderr).toMatch(/\$0\.0003 per frame/);
    expect(asked.stderr).toMatch(/--accept-unknown-price/);
    // the window's "Don't ask again for Video upscale": queued without the flag, and said
    const config = join(dir, 'config');
    mkdirSync(join(config, 'Media Task Studio'), { recursive: true });
    writeFileSync(
      join(config, 'Media Task Studio', 'settings.json'),
      JSON.stringify({ unknownPriceAccepted: ['video-toolkit/upscale'] }),
    );
    const appEnv = { MEDIA_TASK_API_KEY: API_KEY, MEDIA_TASK_BASE_URL: sb.url, XDG_CONFIG_HOME: config };
    const notAsked = await call([...library, '--json', ...args, '--input-json', 'upscale.json'], appEnv);
    expect(notAsked.code, notAsked.stderr).toBe(0);
    expect(firstTask(notAsked)).toMatchObject({ entryId: 'video-toolkit/upscale', estimateMicros: null });
    expect(notAsked.stderr).toMatch(/Don't ask again for Video upscale/);
    // another task type without a known price is still asked about
    writeFileSync(
      join(dir, 'video-swap.json'),
      JSON.stringify({
        swap_image: 'https://example.com/face.png',
        target_video: 'https://example.com/walk.mp4',
      }),
    );
    const swapArgs = ['create', 'raw', '--model', 'Qubico/video-toolkit', '--task-type', 'face-swap'];
    const stillAsked = await call([...library, ...swapArgs, '--input-json', 'video-swap.json'], appEnv);
    expect(stillAsked.code).toBe(2);
    expect(stillAsked.stderr).toMatch(/--accept-unknown-price/);
  });

  it('prices a video upscale of a local MP4 by its frames, read from the file: 3 s at 10 fps x $0.0003', async () => {
    const clip = join(dir, 'clip.mp4');
    writeFileSync(clip, generateVideoMp4({ prompt: 'a walk', seconds: 3 }));
    writeFileSync(join(dir, 'upscale-local.json'), JSON.stringify({ video: clip }));
    const r = await run([
      'create',
      'raw',
      '--model',
      'Qubico/video-toolkit',
      '--task-type',
      'upscale',
      '--input-json',
      'upscale-local.json',
      '--wait',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const task = firstTask(r);
    expect(task).toMatchObject({ state: 'saved', entryId: 'video-toolkit/upscale', estimateMicros: 9000 });
    // uploaded first, then sent as the upload's URL
    expect(task.request.input.video).not.toBe(clip);
  });

  it('creates every family of the service by model and task type through create raw: priced where published, asked first where not, saved as its kind (a 3D model as .glb)', async () => {
    const clip = join(dir, 'family-clip.mp4');
    writeFileSync(clip, generateVideoMp4({ prompt: 'a face', seconds: 2 }));
    const me = join(dir, 'me.jpg');
    const face = join(dir, 'face.png');
    const cases: [string, string, Record<string, unknown>, number | null, string[]][] = [
      ['Qubico/flux1-dev', 'txt2img', { prompt: 'a fox', width: 512, height: 512 }, 15_000, ['image']],
      ['Qubico/flux1-schnell', 'img2img', { prompt: 'a bear', image: me, denoise: 0.5 }, 1500, ['image']],
      ['Qubico/hunyuan', 'fast-txt2video', { prompt: 'a kite', aspect_ratio: '16:9' }, 30_000, ['video']],
      ['Qubico/hunyuan', 'img2video-concat', { prompt: 'it walks', image: me }, 90_000, ['video']],
      ['Qubico/wanx', 'img2video-14b', { prompt: 'it turns', image: me }, 280_000, ['video']],
      ['Qubico/video-toolkit', 'face-swap', { swap_image: face, target_video: clip }, null, ['video']],
      ['Qubico/trellis', 'image-to-3d', { image: me }, 40_000, ['3d', 'video', 'image']],
    ];
    // each in a library of its own, all at once
    const done = await Promise.all(
      cases.map(async ([model, taskType, input], i) => {
        writeFileSync(join(dir, `family-${i}.json`), JSON.stringify(input));
        const r = await call(
          [
            ...['--library', join(dir, `lib-family-${i}`), '--json', 'create', 'raw'],
            ...['--model', model, '--task-type', taskType, '--input-json', `family-${i}.json`],
            ...['--accept-unknown-price', '--wait'],
          ],
          { MEDIA_TASK_API_KEY: API_KEY, MEDIA_TASK_BASE_URL: sb.url },
        );
        expect(r.code, `${model} ${taskType}: ${r.stderr}`).toBe(0);
        return firstTask(r);
      }),
    );
    cases.forEach(([model, taskType, , estimate, kinds], i) => {
      const task = done[i];
      expect(task, `${model} ${taskType}`).toMatchObject({ state: 'saved', model, taskType });
      expect(task.entryId).toBe(`${model.slice('Qubico/'.length)}/${taskType}`);
      expect(task.estimateMicros, `${model} ${taskType}`).toBe(estimate);
      expect(task.outputs.map((o: { kind: string }) => o.kind)).toEqual(kinds);
    });
    const trellis: { outputs: { field: string; path: string }[] } = done[cases.length - 1];
    expect(trellis.outputs.map((o: { field: string }) => o.field)).toEqual([
      'output.model_file',
      'output.combined_video',
      'output.no_background_image',
    ]);
    const model = trellis.outputs[0]?.path ?? '';
    expect(model).toMatch(/\.glb$/);
    const glb = readFileSync(join(dir, `lib-family-${cases.length - 1}`, model));
    expect(glb.subarray(0, 4).toString()).toBe('glTF');
  });

  it('keeps going by what it makes: a picture into a video and into 3D, the video into upscale and a face swap, each with its parent', async () => {
    const picture = firstTask(await run(['create', 'image', '--prompt', 'a red kite', '--wait']));
    expect(picture).toMatchObject({ state: 'saved', model: 'Qubico/flux1-schnell', estimateMicros: 1500 });
    const video = firstTask(
      await run([
        'create',
        'video',
        '--model',
        'wanx-14b',
        '--from',
        picture.id,
        '--prompt',
        'it flies',
        '--wait',
      ]),
    );
    expect(video).toMatchObject({ state: 'saved', model: 'Qubico/wanx', taskType: 'img2video-14b' });
    expect(video).toMatchObject({ parentId: picture.id, parentOutput: 0, estimateMicros: 280_000 });
    const model = firstTask(await run(['create', '3d', '--from', picture.id, '--wait']));
    expect(model).toMatchObject({ state: 'saved', taskType: 'image-to-3d', parentId: picture.id });
    expect(model.outputs[0]).toMatchObject({ kind: '3d', field: 'output.model_file' });
    const later = [
      ['create', 'video-upscale', '--from', video.id, '--wait', '--accept-unknown-price'],
      [
        'create',
        'video-face-swap',
        '--from',
        video.id,
        '--face',
        'face.png',
        '--wait',
        '--accept-unknown-price',
      ],
    ];
    for (const args of later) {
      const task = firstTask(await run(args));
      expect(task, args[1]).toMatchObject({
        state: 'saved',
        model: 'Qubico/video-toolkit',
        parentId: video.id,
      });
      expect(task.outputs[0].kind).toBe('video');
    }
  });

  it('keeps going from results as the hosted service names them: extends a song by --from, upscales and clears the background of a face swap', async () => {
    const song = firstTask(await run(['create', 'audio', '--style', 'harp', '--duration', '4', '--wait']));
    expect(song.state).toBe('saved');
    const extended = firstTask(
      await run(['create', 'extend', '--from', song.id, '--right', '3', '--left', '1', '--wait']),
    );
    expect(extended).toMatchObject({ state: 'saved', model: 'Qubico/ace-step', taskType: 'extend' });
    expect(extended).toMatchObject({ parentId: song.id, parentOutput: 0 });
    expect(extended.request.input).toMatchObject({ left_extend_duration: 1, right_extend_duration: 3 });
    // joined: the source's 4 s with 1 s before and 3 s after
    expect(extended.outputs[0].durationSeconds).toBeCloseTo(8, 0);

    const swap = firstTask(await run(FACE_SWAP));
    const upscaled = firstTask(await run(['create', 'upscale', '--from', swap.id, '--scale', '2', '--wait']));
    expect(upscaled).toMatchObject({ state: 'saved', model: 'Qubico/image-toolkit', parentId: swap.id });
    expect([upscaled.outputs[0].width, upscaled.outputs[0].height]).toEqual([
      swap.outputs[0].width * 2,
      swap.outputs[0].height * 2,
    ]);
    const cleared = firstTask(
      await run(['create', 'background-remove', '--from', swap.id, '--wait', '--accept-unknown-price']),
    );
    expect(cleared).toMatchObject({ state: 'saved', parentId: swap.id });
  });

  it('history lists tasks made elsewhere, by family and date; import brings them in with their outputs, skipping one already there', async () => {
    // made at the service with the key, as the vendor's web workspace would
    const res = await fetch(`${sb.url}/api/v1/task`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'Qubico/trellis',
        task_type: 'text-to-3d',
        input: { prompt: 'a small wooden boat' },
      }),
    });
    expect(res.status).toBe(200);
    const remoteId = ((await res.json()) as { data: { task_id: string } }).data.task_id;
    const today = new Date().toISOString().slice(0, 10);

    const listed = await run(['history', '--family', 'trellis', '--since', today]);
    expect(listed.code, listed.stderr).toBe(0);
    const page = JSON.parse(listed.stdout);
    expect(page.rows.map((r: { remoteId: string }) => r.remoteId)).toContain(remoteId);
    expect(page.rows.find((r: { remoteId: string }) => r.remoteId === remoteId)).toMatchObject({
      model: 'Qubico/trellis',
      taskType: 'text-to-3d',
      inLibrary: null,
    });
    expect(page.rows.every((r: { model: string }) => r.model.startsWith('Qubico/trellis'))).toBe(true);

    const imported = await run(['import', remoteId, '--wait']);
    expect(imported.code, imported.stderr).toBe(0);
    const { imports, tasks } = JSON.parse(imported.stdout);
    expect(imports[0]).toMatchObject({ remoteId, outcome: 'queued' });
    expect(tasks[0]).toMatchObject({ state: 'saved', remoteId, taskType: 'text-to-3d' });
    expect(tasks[0].outputs.some((o: { kind: string }) => o.kind === '3d')).toBe(true);
    for (const o of tasks[0].outputs) expect(existsSync(join(lib(), o.path))).toBe(true);

    // as a person reads it: the table says it is in the library now; importing it again skips it
    const table = await call(['--library', lib(), 'history', '--family', 'trellis'], {
      MEDIA_TASK_API_KEY: API_KEY,
      MEDIA_TASK_BASE_URL: `${sb.url}/api/v1`,
    });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(
      new RegExp(
        `^${remoteId}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  finished   Qubico/trellis text-to-3d  in library as ${tasks[0].id}$`,
        'm',
      ),
    );
    expect(table.stdout).toMatch(
      /^page 1 \(\d+ tasks in all\); bring tasks in with: media-task import ID\.\.\.$/m,
    );
    const again = await run(['import', remoteId]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).imports[0]).toMatchObject({ outcome: 'skipped', taskId: tasks[0].id });

    const bad = await call(['--library', lib(), 'history', '--since', 'yesterday'], {
      MEDIA_TASK_API_KEY: API_KEY,
      MEDIA_TASK_BASE_URL: sb.url,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since "yesterday" is not a date as YYYY-MM-DD/);
  });
});
