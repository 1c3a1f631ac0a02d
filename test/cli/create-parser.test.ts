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
    expect(refusal('flux', '--prompt', 'x', '--batch-size', '9')).toBe(
      '--batch-size must be a whole number from 1 to 4',
    );
    expect(refusal('flux', '--prompt', 'x', '--batch-size', '1.5')).toBe(
      '--batch-size must be a whole number from 1 to 4',
    );
    expect(refusal('flux', '--prompt', 'x', '--guidance-scale', '9')).toBe(
      '--guidance-scale must be a number from 1.5 to 5',
    );
    expect(refusal('flux', '--prompt', 'x', '--width', 'wide')).toBe('--width must be a number (got "wide")');
    expect(refusal('flux', '--batch-size', '2')).toBe('--prompt is required');
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
    expect(refusal('video-upscale')).toBe('--video FILE|URL or --from TASK_ID[:OUTPUT] is required');
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
