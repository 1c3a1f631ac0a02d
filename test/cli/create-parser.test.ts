/**
 * `create <entry>` through the one parser, in process: options made from an entry's fields
 * (kebab case, numbers within bounds, media files/URLs/--from, flags, required fields), its
 * help from the field words, the short names of the catalog, and the hand-named presets reading
 * the same way (the subprocess tests in this folder keep their exact options and outputs).
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/cli-args.ts';
import { planFromCreateArgs } from '../../src/cli/create-command.ts';
import { optionNameOf } from '../../src/cli/create-parser.ts';
import { PRESETS } from '../../src/cli/create-presets.ts';
import { TASK_TYPES } from '../../src/shared/index.ts';

const plan = (...argv: string[]) => {
  const [kind, ...rest] = argv;
  return planFromCreateArgs(kind, rest);
};
const refusal = (...argv: string[]) => {
  try {
    plan(...argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error(`create ${argv.join(' ')} was not refused`);
};

describe('create <entry>: options from the entry fields', () => {
  it('reads a Flux txt2img by its short name and by its id alike: kebab-cased fields, numbers as numbers', () => {
    const args = [
      '--prompt',
      'a fox',
      '--negative-prompt',
      'blur',
      '--batch-size',
      '2',
      '--guidance-scale',
      '2.5',
    ];
    const short = plan('flux', ...args, '--seed', '7');
    expect(short.drafts).toEqual([
      {
        model: 'flux1-schnell',
        taskType: 'txt2img',
        input: { prompt: 'a fox', negative_prompt: 'blur', guidance_scale: 2.5, batch_size: 2, seed: 7 },
      },
    ]);
    expect(plan('flux1-schnell/txt2img', ...args, '--seed', '7').drafts).toEqual(short.drafts);
  });

  it('refuses a number off its bounds or not whole, a missing required field and an unknown option, naming the option', () => {
    // the option, then the rule in the catalog's words (the composer's and the engine's: one wording)
    expect(refusal('flux', '--prompt', 'x', '--batch-size', '9')).toBe(
      '--batch-size: Pictures must be from 1 to 4',
    );
    expect(refusal('flux', '--prompt', 'x', '--batch-size', '1.5')).toBe(
      '--batch-size: Pictures must be a whole number',
    );
    expect(refusal('flux', '--prompt', 'x', '--guidance-scale', '9')).toBe(
      '--guidance-scale: Guidance must be from 1.5 to 5',
    );
    expect(refusal('flux', '--prompt', 'x', '--width', '1536', '--height', '1024')).toBe(
      '--width: Width x height must be at most 1,048,576 pixels (1536 x 1024 is 1,572,864)',
    );
    expect(refusal('audio', '--style', 'piano', '--duration', '500')).toBe(
      '--duration: Duration must be from 1 to 240 seconds',
    );
    expect(refusal('flux', '--prompt', 'x', '--width', 'wide')).toBe('--width must be a number (got "wide")');
    // a missing field: the option, then the field's one sentence (the composer's and the engine's)
    expect(refusal('flux', '--batch-size', '2')).toBe('--prompt: Prompt is needed');
    expect(refusal('image-edit', '--image1', 'a.png', '--prompt', ' ')).toBe(
      '--prompt: Write a prompt that describes the edit',
    );
    expect(refusal('flux', '--promt', 'x')).toBe('unknown option --promt');
    expect(refusal('image-gen', '--prompt', 'x', 'extra')).toBe('unexpected argument "extra"');
  });

  it('takes a media field as a file, a URL or --from a result, and a boolean field as a flag', () => {
    const upscale = plan('image-toolkit/upscale', '--image', 'pics/a.png', '--scale', '2', '--face-enhance');
    expect(upscale.drafts[0]?.input).toEqual({ image: resolve('pics/a.png'), scale: 2, face_enhance: true });
    // the preset of the same entry reads the same line the same way
    expect(plan('upscale', '--image', 'pics/a.png', '--scale', '2', '--face-enhance').drafts).toEqual(
      upscale.drafts,
    );
    expect(plan('image-toolkit/upscale', '--image', 'a.png', '--no-face-enhance').drafts[0]?.input).toEqual({
      image: resolve('a.png'),
      face_enhance: false,
    });
    expect(refusal('image-toolkit/upscale', '--image', 'a.png', '--face-enhance', '--no-face-enhance')).toBe(
      'give --face-enhance or --no-face-enhance, not both',
    );
    expect(plan('video-upscale', '--from', 'task-1:1').drafts[0]?.input).toEqual({
      video: { $output: { taskId: 'task-1', index: 1 } },
    });
    expect(plan('video-upscale', '--video', 'https://example.com/a.mp4').drafts[0]?.input).toEqual({
      video: 'https://example.com/a.mp4',
    });
    // a missing media field: its sentence, then how to give it
    expect(refusal('video-upscale')).toBe(
      '--video: Add the video to upscale (FILE|URL or --from TASK_ID[:OUTPUT])',
    );
    expect(refusal('video-upscale', '--video', 'a.mp4', '--from', 'x')).toBe(
      'give --video or --from, not both',
    );
  });

  it('prints an entry help from its field words, bounds and price, and queues nothing', () => {
    const { help, drafts } = plan('flux', '--help');
    expect(drafts).toEqual([]);
    expect(help).toContain('media-task create flux (also: create flux1-schnell/txt2img)');
    expect(help).toContain('$0.0015 per image');
    expect(help).toMatch(/--batch-size N +.*a whole number from 1 to 4/);
    expect(help).toMatch(/--prompt TEXT +.*\(required\)/);
    expect(plan('video-gen', '--help').help).toContain('no published price (asked first under a budget)');
    expect(plan('audio', '--help').help).toMatch(/--lyrics-file FILE/);
  });

  it('sweeps the seed of --variants for any entry with a whole-number seed', () => {
    const seeds = plan('flux', '--prompt', 'x', '--seed', '40', '--variants', '3').drafts.map(
      (d) => d.input.seed,
    );
    expect(seeds).toEqual([40, 41, 42]);
  });

  it('names each entry once: short names are unique, a preset is the command of the entry of its name, a field named like a create option is put under input-', () => {
    const shortNames = TASK_TYPES.flatMap((e) => (e.shortName ? [e.shortName] : []));
    expect(new Set(shortNames).size).toBe(shortNames.length);
    for (const [name, preset] of Object.entries(PRESETS)) expect(preset.entry.shortName).toBe(name);
    expect(optionNameOf('negative_prompt')).toBe('negative-prompt');
    expect(optionNameOf('model')).toBe('input-model');
    expect(optionNameOf('from')).toBe('input-from');
    expect(refusal('nope')).toMatch(/^create what\? audio, .*flux, video-upscale, .*or an entry id/);
  });
});

describe('create image|video|3d: the model chosen among the entries of that kind', () => {
  const picture = resolve('still.png');
  const draftOf = (...argv: string[]) => plan(...argv).drafts[0];

  it('picks the entry by --model and by whether a picture is given (--image or --from), with sensible defaults', () => {
    expect(draftOf('image', '--prompt', 'a fox')).toMatchObject({
      model: 'flux1-schnell',
      taskType: 'txt2img',
    });
    expect(draftOf('image', '--model', 'flux-dev', '--prompt', 'a fox', '--image', 'still.png')).toEqual({
      model: 'flux1-dev',
      taskType: 'img2img',
      input: { prompt: 'a fox', image: picture },
    });
    expect(draftOf('image', '--model=z-image', '--prompt', 'a fox', '--batch-size', '2')).toMatchObject({
      model: 'z-image',
      input: { batch_size: 2 },
    });
    expect(draftOf('video', '--prompt', 'waves', '--aspect-ratio', '9:16')).toEqual({
      model: 'hunyuan',
      taskType: 'fast-txt2video',
      input: { prompt: 'waves', aspect_ratio: '9:16' },
    });
    expect(draftOf('video', '--prompt', 'it moves', '--from', '12')).toEqual({
      model: 'hunyuan',
      taskType: 'img2video-concat',
      input: { prompt: 'it moves', image: { $output: { taskId: '12', index: 0 } } },
    });
    expect(draftOf('video', '--model', 'wanx-14b', '--prompt', 'turns', '--from', '12:1')).toMatchObject({
      model: 'wanx',
      taskType: 'img2video-14b',
      input: { image: { $output: { taskId: '12', index: 1 } } },
    });
    // an entry's id or short name names the same choice
    expect(
      draftOf('video', '--model', 'hunyuan/img2video-replace', '--prompt', 'x', '--image', 'still.png'),
    ).toMatchObject({ taskType: 'img2video-replace' });
    expect(draftOf('3d', '--prompt', 'a boat')).toMatchObject({ model: 'trellis', taskType: 'text-to-3d' });
    expect(draftOf('3d', '--from', '7')).toMatchObject({ model: 'trellis', taskType: 'image-to-3d' });
    expect(draftOf('3d', '--model', 'trellis2', '--image', 'still.png', '--seed', '3')).toEqual({
      model: 'trellis2',
      taskType: 'image-to-3d',
      input: { image: picture, seed: 3 },
    });
  });

  it('refuses a model of another kind, or one that cannot start from what is given, naming the choices', () => {
    expect(refusal('video', '--model', 'flux-dev', '--prompt', 'x')).toBe(
      '--model: "flux-dev" is not a model of create video; choose hunyuan-fast, hunyuan, hunyuan-replace, wanx-1.3b or wanx-14b (to send another model id, use create <entry id> --model ID)',
    );
    expect(refusal('video', '--model', 'hunyuan-fast', '--prompt', 'x', '--image', 'a.png')).toBe(
      '--model hunyuan-fast makes a video from text only: leave out --image and --from, or choose hunyuan, hunyuan-replace or wanx-14b',
    );
    expect(refusal('3d', '--model', 'trellis2', '--prompt', 'a boat')).toBe(
      '--model trellis2 makes a 3D model from a picture: give --image FILE|URL or --from TASK_ID, or choose trellis',
    );
    expect(refusal('video', '--aspect-ratio', '4:3')).toBe('--prompt: Prompt is needed');
  });

  it('lists the models with their prices in its help', () => {
    const help = plan('video', '--help').help ?? '';
    expect(help).toMatch(/^media-task create video \(also: create hunyuan-fast\)/);
    expect(help).toContain('--aspect-ratio TEXT');
    expect(help).toContain('hunyuan-fast (from text, $0.03 per task)');
    expect(help).toContain('wanx-14b (from text, $0.28 per task; from a picture, $0.28 per task)');
  });

  it('puts a face onto a video by create video-face-swap --face, the video a file or a previous result', () => {
    expect(draftOf('video-face-swap', '--from', '4', '--face', 'me.png', '--target-faces', '1')).toEqual({
      model: 'video-toolkit',
      taskType: 'face-swap',
      input: {
        target_video: { $output: { taskId: '4', index: 0 } },
        swap_image: resolve('me.png'),
        target_faces_index: '1',
      },
    });
    expect(refusal('video-face-swap', '--video', 'a.mp4')).toBe('--face: Add a face image (FILE|URL)');
    expect(draftOf('video-upscale', '--from', '4')).toMatchObject({
      model: 'video-toolkit',
      taskType: 'upscale',
      input: { video: { $output: { taskId: '4', index: 0 } } },
    });
  });
});
