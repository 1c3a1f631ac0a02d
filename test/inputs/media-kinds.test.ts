import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generateSongWav, generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import {
  describeType,
  formatOfExtension,
  formatOfMime,
  INPUT_MEDIA_KINDS,
  inputLimitsOf,
  MAX_UNSIZED_PICTURE_BYTES,
  MEDIA_KIND_TABLE,
  MEDIA_KINDS,
  mayShowPicture,
  mediaKindOfMime,
  pictureNotShownText,
  sniffFileType,
} from '../../src/shared/media/index.ts';
import { makeGlb, makeMp3Frames } from './input-fixtures.ts';

describe('the table of media kinds', () => {
  it('has a row for every kind, each with extensions, MIME types, words and how it is shown', () => {
    expect(MEDIA_KINDS).toEqual(['image', 'audio', 'video', '3d', 'file']);
    for (const kind of MEDIA_KINDS) {
      const row = MEDIA_KIND_TABLE[kind];
      expect(row.kind).toBe(kind);
      expect(row.formats.length).toBeGreaterThan(0);
      for (const format of row.formats) {
        expect(format.ext).toMatch(/^[a-z0-9]+$/);
        expect(format.mime).toMatch(/^[a-z]+\/[a-z0-9.+-]+$/);
        expect(format.description).toMatch(/^an? /);
      }
      expect(row.words.wanted).not.toBe('');
      expect(row.show.icon).not.toBe('');
    }
  });

  it('gives every kind but the plain file a recogniser, and every input kind its limits', () => {
    for (const kind of MEDIA_KINDS) expect(MEDIA_KIND_TABLE[kind].recognise === null).toBe(kind === 'file');
    for (const kind of INPUT_MEDIA_KINDS) {
      const limits = inputLimitsOf(kind);
      expect(limits.maxBytes).toBeGreaterThan(0);
      // an input's formats are formats of its kind
      for (const ext of limits.formats) expect(formatOfExtension(ext)?.kind).toBe(kind);
    }
    expect(inputLimitsOf('video')).toMatchObject({ maxBytes: 10 * 1024 * 1024, formats: ['mp4'] });
    expect(MEDIA_KIND_TABLE['3d'].input).toBeNull();
  });

  it('looks formats up by extension and MIME type, other spellings folded', () => {
    expect(formatOfExtension('JPEG')).toMatchObject({ ext: 'jpg', mime: 'image/jpeg', kind: 'image' });
    expect(formatOfExtension('glb')).toMatchObject({ mime: 'model/gltf-binary', kind: '3d' });
    expect(formatOfExtension('exe')).toBeNull();
    expect(formatOfMime('audio/x-wav')?.mime).toBe('audio/wav');
    expect(formatOfMime('video/mp4; codecs="avc1"')?.kind).toBe('video');
    expect(mediaKindOfMime('model/gltf-binary')).toBe('3d');
    expect(mediaKindOfMime('image/svg+xml')).toBe('image');
    expect(mediaKindOfMime('application/pdf')).toBe('file');
    expect(describeType({ ext: 'glb', mime: 'model/gltf-binary' })).toBe('a GLB 3D model');
  });
});

describe('each kind recognises its own bytes', () => {
  it('image: PNG, JPEG and WebP from sharp, GIF', async () => {
    const pixels = sharp({ create: { width: 4, height: 3, channels: 3, background: '#08f' } });
    for (const [format, ext] of [
      ['png', 'png'],
      ['jpeg', 'jpg'],
      ['webp', 'webp'],
      ['gif', 'gif'],
    ] as const) {
      const bytes = await pixels.clone().toFormat(format).toBuffer();
      expect(MEDIA_KIND_TABLE.image.recognise?.(bytes)?.ext).toBe(ext);
      for (const other of ['audio', 'video', '3d'] as const)
        expect(MEDIA_KIND_TABLE[other].recognise?.(bytes)).toBeNull();
    }
  });

  it('audio: the sandbox WAV and an MP3', () => {
    const wav = generateSongWav({ stylePrompt: 'kinds', lyrics: '', durationSeconds: 1 });
    expect(MEDIA_KIND_TABLE.audio.recognise?.(wav)).toEqual({
      mime: 'audio/wav',
      ext: 'wav',
      kind: 'audio',
    });
    expect(MEDIA_KIND_TABLE.audio.recognise?.(makeMp3Frames())?.ext).toBe('mp3');
    expect(MEDIA_KIND_TABLE.image.recognise?.(wav)).toBeNull();
  });

  it('video: the sandbox MP4 (ftyp), not as audio or picture', () => {
    const mp4 = generateVideoMp4({ prompt: 'kinds', seconds: 1 });
    expect(MEDIA_KIND_TABLE.video.recognise?.(mp4)).toEqual({
      mime: 'video/mp4',
      ext: 'mp4',
      kind: 'video',
    });
    expect(MEDIA_KIND_TABLE.audio.recognise?.(mp4)).toBeNull();
    expect(MEDIA_KIND_TABLE.image.recognise?.(mp4)).toBeNull();
    expect(sniffFileType(mp4)?.kind).toBe('video');
  });

  it('3D model: the glTF magic of a GLB, and nothing else', () => {
    expect(sniffFileType(makeGlb())).toEqual({ mime: 'model/gltf-binary', ext: 'glb', kind: '3d' });
    const wrongVersion = makeGlb();
    wrongVersion.writeUInt32LE(7, 4);
    expect(sniffFileType(wrongVersion)).toBeNull();
    expect(sniffFileType(Buffer.from('{"asset":{"version":"2.0"}}'))).toBeNull();
  });
});

describe('may the window decode a saved picture', () => {
  it('shows one whose recorded size is within the decode limits, whatever its bytes', () => {
    expect(mayShowPicture({ width: 8192, height: 8192, size: 900 * 1024 * 1024 })).toBe(true);
    expect(mayShowPicture({ width: 16_384, height: 4096, size: null })).toBe(true);
    expect(pictureNotShownText({ width: 1600, height: 1200, size: 5_000_000 })).toBeNull();
  });

  it('never one past them: a side over 16,384 px, more than 67.1 million pixels, or a size that is no size', () => {
    expect(pictureNotShownText({ width: 99_000_000, height: 1, size: 12_000 })).toBe(
      'Too large to show here: 99,000,000 × 1 px — open it with another program',
    );
    expect(mayShowPicture({ width: 16_385, height: 1, size: 100 })).toBe(false);
    expect(mayShowPicture({ width: 8193, height: 8192, size: 100 })).toBe(false);
    expect(mayShowPicture({ width: 0, height: 10, size: 100 })).toBe(false);
  });

  it('of unknown size, only a small file', () => {
    expect(mayShowPicture({ width: null, height: null, size: MAX_UNSIZED_PICTURE_BYTES })).toBe(true);
    expect(pictureNotShownText({ width: null, height: null, size: 40 * 1024 * 1024 })).toBe(
      'Too large to show here: a 40.0 MB picture of unknown size — open it with another program',
    );
    expect(mayShowPicture({ width: 300, height: null, size: null })).toBe(false);
  });
});
