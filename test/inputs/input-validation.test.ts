import { mkdir, mkdtemp, rm, symlink, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type InputRule,
  InputValidationError,
  inputProblem,
  validateInput,
} from '../../src/core/inputs/index.ts';
import { generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import {
  makeBmp,
  makeFtyp,
  makeImage,
  makeMp3Frames,
  makeTempDir,
  makeWav,
  writeFixture,
} from './input-fixtures.ts';

let dir: string;
let cleanup: () => Promise<void>;
let pngPath: string;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  pngPath = await writeFixture(dir, 'face.png', await makeImage('png', 640, 480));
});
afterAll(() => cleanup());

const target: InputRule = { field: 'target_image', kind: 'image', faceSwap: true };
const swap: InputRule = { field: 'swap_image', kind: 'image', faceSwap: true };
const image1: InputRule = { field: 'image1', kind: 'image' };
const image2: InputRule = { field: 'image2', kind: 'image' };
const styleAudio: InputRule = { field: 'style_audio', kind: 'audio' };

async function refusal(value: string, rule: InputRule): Promise<InputValidationError> {
  try {
    await validateInput(value, rule);
  } catch (error) {
    if (error instanceof InputValidationError) return error;
    throw error;
  }
  throw new Error(`accepted ${value.slice(0, 80)}`);
}

const base64Of = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('URLs', () => {
  it('accepts http(s) URLs without fetching them, query ignored for the face-swap extension', async () => {
    await expect(validateInput('https://example.com/a/face.JPG?sig=abc#x', target)).resolves.toEqual({
      source: 'url',
      field: 'target_image',
      url: 'https://example.com/a/face.JPG?sig=abc#x',
    });
    await expect(validateInput('http://127.0.0.1:9/x.webp', swap)).resolves.toMatchObject({ source: 'url' });
    await expect(validateInput('https://example.com/anything', image1)).resolves.toMatchObject({
      source: 'url',
    });
  });

  it.each([
    ['https://example.com/photo.gif', target, 'target_image: URL must end in .jpg, .jpeg, .png or .webp'],
    [
      'https://example.com/photo.png.exe?x=.png',
      target,
      'target_image: URL must end in .jpg, .jpeg, .png or .webp',
    ],
    ['ftp://example.com/photo.png', image1, 'image1: only http and https URLs are accepted'],
    ['javascript:alert(1)', image1, 'image1: only http and https URLs are accepted'],
    ['http://', image1, 'image1: not a valid URL: http://'],
  ])('refuses %s', async (value, rule, message) => {
    expect((await refusal(value, rule)).message).toBe(message);
  });
});

describe('Base64 and data URIs', () => {
  it('raw Base64 of a PNG: type and size from the decoded bytes', async () => {
    const png = await makeImage('png', 64, 32);
    await expect(validateInput(base64Of(png), target)).resolves.toEqual({
      source: 'base64',
      field: 'target_image',
      mime: 'image/png',
      bytes: png.length,
      width: 64,
      height: 32,
    });
  });

  it('raw Base64 of a JPEG ("/9j/...") is Base64, not an absolute path', async () => {
    const jpeg = await makeImage('jpeg', 20, 10);
    const text = base64Of(jpeg);
    expect(text.startsWith('/9j/')).toBe(true);
    await expect(validateInput(text, swap)).resolves.toMatchObject({
      source: 'base64',
      mime: 'image/jpeg',
      width: 20,
    });
  });

  it('a data URI, its declared type agreeing with the bytes (aliases allowed)', async () => {
    const jpeg = await makeImage('jpeg', 20, 10);
    await expect(validateInput(`data:image/jpg;base64,${base64Of(jpeg)}`, swap)).resolves.toMatchObject({
      source: 'base64',
      mime: 'image/jpeg',
      bytes: jpeg.length,
      height: 10,
    });
  });

  it('Base64 audio for an audio field has no dimensions', async () => {
    const wav = makeWav();
    await expect(validateInput(`data:audio/x-wav;base64,${base64Of(wav)}`, styleAudio)).resolves.toEqual({
      source: 'base64',
      field: 'style_audio',
      mime: 'audio/wav',
      bytes: wav.length,
    });
  });

  it('line-wrapped Base64 is accepted', async () => {
    const png = await makeImage('png', 8, 8);
    const wrapped = base64Of(png).replace(/(.{76})/g, '$1\n');
    await expect(validateInput(wrapped, image1)).resolves.toMatchObject({ source: 'base64', width: 8 });
  });

  it.each([
    [
      'a GIF for face swap',
      async () => base64Of(await makeImage('gif', 8, 8)),
      target,
      'target_image: the Base64 data is a GIF; face swap takes JPEG, PNG or WebP',
    ],
    [
      'a 3000 x 3000 image',
      async () => base64Of(await makeImage('png', 3000, 3000)),
      swap,
      'swap_image: image is 3000 x 3000 px; each side must be under 2048 px',
    ],
    [
      'text',
      async () => base64Of(Buffer.from('just some text, nothing more')),
      image1,
      'image1: the Base64 data is not an image file',
    ],
    [
      'an invalid character in a long value',
      async () => `${base64Of(await makeImage('png', 8, 8))}%AAA`.padStart(300, 'A'),
      image1,
      /^image1: invalid Base64: unexpected character "%" at position \d+$/,
    ],
    [
      'an invalid character in a data URI',
      async () => 'data:image/png;base64,iVBORw0K*Ggo=',
      image1,
      'image1: invalid Base64: unexpected character "*" at position 8',
    ],
    [
      'a data URI that is not Base64',
      async () => 'data:image/png,%89PNG',
      image1,
      'image1: data URI is not Base64-encoded (";base64," missing)',
    ],
    [
      'a data URI whose declared type disagrees with the bytes',
      async () => `data:image/png;base64,${base64Of(await makeImage('jpeg', 8, 8))}`,
      image1,
      'image1: the data URI says image/png but the data is image/jpeg',
    ],
    ['an empty data URI', async () => 'data:image/png;base64,', image1, 'image1: the Base64 data is empty'],
    [
      'Base64 over the size limit',
      async () => base64Of(await makeImage('png', 8, 8)),
      { ...image2, maxBytes: 50 },
      /^image2: the Base64 data is \d+ bytes; the limit is 50 bytes$/,
    ],
    [
      'a truncated PNG',
      async () => base64Of((await makeImage('png', 8, 8)).subarray(0, 24)),
      image1,
      'image1: the Base64 data is not a readable image (corrupt PNG: IHDR truncated)',
    ],
  ])('refuses %s', async (_name, make, rule, message) => {
    const error = await refusal(await make(), rule);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });
});

describe('local files', () => {
  it.each([
    ['png', 'image/png', 'png'],
    ['jpeg', 'image/jpeg', 'jpg'],
    ['webp', 'image/webp', 'webp'],
  ] as const)('a %s for face swap', async (format, mime, ext) => {
    const bytes = await makeImage(format, 300, 200);
    const path = await writeFixture(dir, `ok.${format}`, bytes);
    await expect(validateInput(path, target)).resolves.toEqual({
      source: 'file',
      field: 'target_image',
      path,
      mime,
      ext,
      size: bytes.length,
      width: 300,
      height: 200,
    });
  });

  it('GIF and BMP are fine for an image-edit input', async () => {
    const gif = await writeFixture(dir, 'anim.gif', await makeImage('gif', 30, 20));
    await expect(validateInput(gif, image1)).resolves.toMatchObject({
      mime: 'image/gif',
      width: 30,
      height: 20,
    });
    const bmp = await writeFixture(dir, 'scan.bmp', makeBmp(12, 34));
    await expect(validateInput(bmp, image1)).resolves.toMatchObject({
      mime: 'image/bmp',
      width: 12,
      height: 34,
    });
  });

  it('audio files for an audio field', async () => {
    const mp3 = await writeFixture(dir, 'song.mp3', makeMp3Frames());
    await expect(validateInput(mp3, styleAudio)).resolves.toEqual({
      source: 'file',
      field: 'style_audio',
      path: mp3,
      mime: 'audio/mpeg',
      ext: 'mp3',
      size: 834,
    });
    const m4a = await writeFixture(dir, 'voice.m4a', makeFtyp('M4A ', ['M4A ', 'isom']));
    await expect(validateInput(m4a, styleAudio)).resolves.toMatchObject({ mime: 'audio/mp4', ext: 'm4a' });
  });

  it('sides must be under the limit: 2047 passes, 2048 does not', async () => {
    const ok = await writeFixture(dir, 'edge-ok.png', await makeImage('png', 2047, 1));
    await expect(validateInput(ok, swap)).resolves.toMatchObject({ width: 2047 });
    const tooWide = await writeFixture(dir, 'edge.png', await makeImage('png', 2048, 1));
    expect((await refusal(tooWide, swap)).message).toBe(
      'swap_image: image is 2048 x 1 px; each side must be under 2048 px',
    );
    const custom = await writeFixture(dir, 'custom.png', await makeImage('png', 10, 150));
    expect((await refusal(custom, { ...image1, maxSideExclusive: 100 })).detail).toBe(
      'image is 10 x 150 px; each side must be under 100 px',
    );
  });

  it('a 3000 x 3000 JPEG and PNG are refused from the header', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      const path = await writeFixture(dir, `big.${format}`, await makeImage(format, 3000, 3000));
      expect((await refusal(path, swap)).message).toBe(
        'swap_image: image is 3000 x 3000 px; each side must be under 2048 px',
      );
    }
  });

  it('refuses a GIF for face swap, naming the file', async () => {
    const path = await writeFixture(dir, 'photo.gif', await makeImage('gif', 10, 10));
    const error = await refusal(path, target);
    expect(error).toBeInstanceOf(InputValidationError);
    expect(error.field).toBe('target_image');
    expect(error.detail).toBe('"photo.gif" is a GIF; face swap takes JPEG, PNG or WebP');
    expect(error.message).toBe('target_image: "photo.gif" is a GIF; face swap takes JPEG, PNG or WebP');
  });

  it.each([
    ['an empty file', 'empty.png', async () => Buffer.alloc(0), target, 'target_image: file is empty'],
    [
      'a text file named .txt for audio',
      'notes.txt',
      async () => Buffer.from('remember the milk\n'),
      styleAudio,
      'style_audio: "notes.txt" is not an audio file',
    ],
    [
      'a text file named .png',
      'notes.png',
      async () => Buffer.from('this is not a png\n'),
      image1,
      'image1: "notes.png" is not an image file',
    ],
    [
      'a truncated PNG',
      'broken.png',
      async () => (await makeImage('png', 50, 50)).subarray(0, 20),
      image1,
      'image1: "broken.png" is not a readable image (corrupt PNG: IHDR truncated)',
    ],
    [
      'an MP3 for an image field',
      'song.mp3',
      async () => makeMp3Frames(),
      image1,
      'image1: "song.mp3" is an MP3 audio file, not an image',
    ],
    [
      'an MP4 video for an audio field',
      'clip.m4a',
      async () => makeFtyp('isom', ['isom', 'mp41']),
      styleAudio,
      'style_audio: "clip.m4a" is an MP4 video, not an audio file',
    ],
    [
      'a PNG for an audio field',
      'cover.png',
      async () => makeImage('png', 4, 4),
      styleAudio,
      'style_audio: "cover.png" is a PNG image, not an audio file',
    ],
    [
      'a BMP for face swap',
      'scan.bmp',
      async () => makeBmp(4, 4),
      target,
      'target_image: "scan.bmp" is a BMP image; face swap takes JPEG, PNG or WebP',
    ],
    [
      'an AVIF, whose size cannot be read from a simple header',
      'photo.avif',
      async () =>
        sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
          .avif({ effort: 0 })
          .toBuffer(),
      image1,
      'image1: "photo.avif" is an AVIF image; this input takes JPEG, PNG, WebP, GIF or BMP',
    ],
    [
      'a file over the size limit',
      'small-limit.png',
      async () => makeImage('png', 64, 64),
      { ...image1, maxBytes: 100 },
      /^image1: file is \d+ bytes; the limit is 100 bytes$/,
    ],
  ])('refuses %s', async (_name, fileName, make, rule, message) => {
    const path = await writeFixture(dir, fileName, await make());
    const error = await refusal(path, rule);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
  });

  it('refuses a 31 MB file against the default 20 MB image limit without reading it', async () => {
    const path = join(dir, 'huge.png');
    await writeFixture(dir, 'huge.png', '');
    await truncate(path, 31 * 1024 * 1024);
    expect((await refusal(path, image2)).message).toBe('image2: file is 31.0 MB; the limit is 20 MB');
  });

  it('refuses a missing file, a directory and a broken symlink', async () => {
    expect((await refusal('/x/y.png', image1)).message).toBe('image1: file not found: /x/y.png');
    const folder = join(dir, 'a-folder');
    await mkdir(folder);
    expect((await refusal(folder, image1)).message).toBe(`image1: is a folder, not a file: ${folder}`);
    const dangling = join(dir, 'dangling.png');
    await symlink(join(dir, 'nowhere.png'), dangling);
    expect((await refusal(dangling, image1)).message).toBe(`image1: file not found: ${dangling}`);
  });

  it('follows a symlink to a valid image', async () => {
    const link = join(dir, 'link-to-face.png');
    await symlink(pngPath, link);
    await expect(validateInput(link, target)).resolves.toMatchObject({
      source: 'file',
      path: link,
      width: 640,
    });
  });

  it('accepts a file: URL, as some drag sources give', async () => {
    await expect(validateInput(pathToFileURL(pngPath).href, target)).resolves.toMatchObject({
      source: 'file',
      path: pngPath,
    });
  });

  it('an existing absolute path made only of Base64 characters is a file', async () => {
    const plain = await mkdtemp(join(tmpdir(), 'mtsb64'));
    try {
      const path = await writeFixture(plain, 'facefile', await makeImage('png', 5, 5));
      await expect(validateInput(path, target)).resolves.toMatchObject({ source: 'file', path, width: 5 });
      const missing = join(plain, 'Pictures', 'holidayphoto');
      expect((await refusal(missing, target)).message).toBe(`target_image: file not found: ${missing}`);
    } finally {
      await rm(plain, { recursive: true, force: true });
    }
  });
});

describe('values that are none of these', () => {
  it.each([
    ['hello', target, 'target_image: not a URL, a Base64 image or a file path'],
    ['hello', styleAudio, 'style_audio: not a URL, Base64 audio or a file path'],
    ['photos/face.png', target, 'target_image: file path must be absolute: photos/face.png'],
    ['', image1, 'image1: no value given'],
    ['   ', image1, 'image1: no value given'],
  ])('%j', async (value, rule, message) => {
    expect((await refusal(value, rule)).message).toBe(message);
  });
});

describe('InputValidationError', () => {
  it('keeps a full message as given and derives the detail', () => {
    const error = new InputValidationError('title', 'title: must not be empty');
    expect(error.message).toBe('title: must not be empty');
    expect(error.detail).toBe('must not be empty');
    expect(error.field).toBe('title');
    expect(inputProblem('image1', 'file is empty').message).toBe('image1: file is empty');
    expect(inputProblem('image1', 'file is empty')).toBeInstanceOf(Error);
  });
});

describe('video inputs (the media table: MP4, at most 10 MB and 720p)', () => {
  const video: InputRule = { field: 'video', kind: 'video' };
  const upscale: InputRule = { field: 'video', kind: 'video', limits: { minFrames: 10, maxFrames: 240 } };

  it('takes an MP4 file and a Base64 MP4 with their size, length and frames', async () => {
    const mp4 = generateVideoMp4({ prompt: 'input', seconds: 2, fps: 10 });
    const path = await writeFixture(dir, 'clip.mp4', mp4);
    expect(await validateInput(path, video)).toEqual({
      source: 'file',
      field: 'video',
      path,
      mime: 'video/mp4',
      ext: 'mp4',
      size: mp4.length,
      width: 160,
      height: 96,
      durationSeconds: 2,
      frames: 20,
    });
    const inline = await validateInput(`data:video/mp4;base64,${mp4.toString('base64')}`, upscale);
    expect(inline).toMatchObject({ source: 'base64', mime: 'video/mp4', frames: 20, width: 160 });
  });

  it('refuses a picture, a video over 720p, too many or too few frames, and a file over 10 MB', async () => {
    expect((await refusal(pngPath, video)).message).toBe(
      'video: "face.png" is a PNG image, not an MP4 video',
    );
    const big = await writeFixture(
      dir,
      'big.mp4',
      generateVideoMp4({ prompt: 'b', seconds: 0.1, width: 1920, height: 1080 }),
    );
    expect((await refusal(big, video)).message).toBe(
      'video: video is 1920 x 1080 px; it must fit in 1280 x 720 (720p)',
    );
    const portrait = await writeFixture(
      dir,
      'tall.mp4',
      generateVideoMp4({ prompt: 't', seconds: 0.1, width: 720, height: 1280 }),
    );
    await expect(validateInput(portrait, video)).resolves.toMatchObject({ width: 720, height: 1280 });
    const short = await writeFixture(
      dir,
      'short.mp4',
      generateVideoMp4({ prompt: 's', seconds: 0.5, fps: 10 }),
    );
    expect((await refusal(short, upscale)).message).toBe('video: video has 5 frames; at least 10');
    const long = await writeFixture(
      dir,
      'long.mp4',
      generateVideoMp4({ prompt: 'l', seconds: 25, fps: 10, width: 16, height: 16 }),
    );
    expect((await refusal(long, upscale)).message).toBe('video: video has 250 frames; at most 240');
    const heavy = await writeFixture(dir, 'heavy.mp4', generateVideoMp4({ prompt: 'h', seconds: 0.1 }));
    await truncate(heavy, 10 * 1024 * 1024 + 1);
    expect((await refusal(heavy, video)).message).toBe(
      'video: file is 10485761 bytes; the limit is 10485760 bytes',
    );
  });

  it('refuses an MP4 cut short with the reason', async () => {
    const mp4 = generateVideoMp4({ prompt: 'cut', seconds: 1 });
    const cut = await writeFixture(dir, 'cut.mp4', mp4.subarray(0, 200));
    expect((await refusal(cut, video)).message).toMatch(
      /^video: "cut\.mp4" is not a readable video \(its "moov" box at byte \d+ runs past the end: the file may be cut short\)$/,
    );
  });
});
