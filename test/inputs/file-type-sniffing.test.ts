import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sniffFileType } from '../../src/core/inputs/index.ts';
import {
  makeBmp,
  makeEbml,
  makeFlac,
  makeFtyp,
  makeImage,
  makeMp3Frames,
  makeOgg,
  makeWav,
} from './input-fixtures.ts';

const ext = (bytes: Uint8Array) => sniffFileType(bytes)?.ext ?? null;

describe('sniffFileType on images made by sharp', () => {
  it.each([
    ['png', 'png', 'image/png'],
    ['jpeg', 'jpg', 'image/jpeg'],
    ['webp', 'webp', 'image/webp'],
    ['webp-lossless', 'webp', 'image/webp'],
    ['gif', 'gif', 'image/gif'],
  ] as const)('%s', async (format, expectedExt, mime) => {
    const type = sniffFileType(await makeImage(format, 20, 10));
    expect(type).toEqual({ ext: expectedExt, mime, kind: 'image' });
  });

  it('AVIF (ftyp brand avif)', async () => {
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: 'red' } })
      .avif({ effort: 0 })
      .toBuffer();
    expect(sniffFileType(avif)).toEqual({ mime: 'image/avif', ext: 'avif', kind: 'image' });
  });
});

describe('sniffFileType on crafted headers', () => {
  it('BMP with an info header and with a core header', () => {
    expect(sniffFileType(makeBmp(3, 2))).toEqual({ mime: 'image/bmp', ext: 'bmp', kind: 'image' });
    expect(ext(makeBmp(3, 2, { dibSize: 12 }))).toBe('bmp');
  });

  it('HEIC by major brand, and HEIF/AVIF behind the generic mif1 brand', () => {
    expect(sniffFileType(makeFtyp('heic', ['mif1', 'heic']))).toEqual({
      mime: 'image/heic',
      ext: 'heic',
      kind: 'image',
    });
    expect(ext(makeFtyp('mif1', ['mif1', 'heic']))).toBe('heic');
    expect(ext(makeFtyp('mif1', ['mif1', 'avif']))).toBe('avif');
    expect(ext(makeFtyp('mif1', ['mif1']))).toBe('heif');
  });

  it('MP3 with an ID3 tag, and from two consecutive frame headers', () => {
    const id3 = Buffer.concat([Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00', 'latin1'), makeMp3Frames()]);
    expect(sniffFileType(id3)).toEqual({ mime: 'audio/mpeg', ext: 'mp3', kind: 'audio' });
    expect(ext(makeMp3Frames())).toBe('mp3');
  });

  it('a frame sync not followed by a second frame is not MP3', () => {
    const frames = makeMp3Frames();
    frames[417] = 0x00;
    expect(ext(frames)).toBeNull();
    // Layer bits 00 (AAC ADTS) and a reserved version are not MP3 either.
    expect(ext(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0, 0]))).toBeNull();
    expect(ext(Buffer.from([0xff, 0xeb, 0x90, 0x64]))).toBeNull();
  });

  it('WAV, FLAC, Ogg', () => {
    expect(sniffFileType(makeWav())).toEqual({ mime: 'audio/wav', ext: 'wav', kind: 'audio' });
    expect(sniffFileType(makeFlac())).toEqual({ mime: 'audio/flac', ext: 'flac', kind: 'audio' });
    expect(sniffFileType(makeOgg('\x01vorbis'))).toEqual({ mime: 'audio/ogg', ext: 'ogg', kind: 'audio' });
    expect(ext(makeOgg('OpusHead'))).toBe('ogg');
    expect(sniffFileType(makeOgg('\x80theora'))?.kind).toBe('video');
  });

  it('M4A and MP4 by ftyp brands', () => {
    expect(sniffFileType(makeFtyp('M4A ', ['M4A ', 'mp42', 'isom']))).toEqual({
      mime: 'audio/mp4',
      ext: 'm4a',
      kind: 'audio',
    });
    expect(ext(makeFtyp('mp42', ['isom', 'M4A ']))).toBe('m4a');
    expect(sniffFileType(makeFtyp('isom', ['isom', 'iso2', 'avc1', 'mp41']))).toEqual({
      mime: 'video/mp4',
      ext: 'mp4',
      kind: 'video',
    });
    expect(ext(makeFtyp('xxxx', ['mp42']))).toBe('mp4');
    expect(ext(makeFtyp('xxxx', ['yyyy']))).toBeNull();
  });

  it('WebM and Matroska by EBML DocType', () => {
    expect(sniffFileType(makeEbml('webm'))).toEqual({ mime: 'video/webm', ext: 'webm', kind: 'video' });
    expect(ext(makeEbml('matroska'))).toBe('mkv');
    expect(ext(makeEbml('other'))).toBeNull();
  });
});

describe('sniffFileType refuses what is not media', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['text', Buffer.from('hello, this is a text file\n')],
    ['text starting with BM', Buffer.from('BMW owners club meeting notes, Tuesday\n')],
    ['RIFF of another kind', Buffer.from('RIFF\x10\x00\x00\x00AVI LIST', 'latin1')],
    ['PNG signature cut short', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['JPEG SOI without a marker', Buffer.from([0xff, 0xd8])],
    ['GIF of an unknown version', Buffer.from('GIF90a\x01\x00\x01\x00', 'latin1')],
  ])('%s', (_name, bytes) => {
    expect(sniffFileType(bytes)).toBeNull();
  });

  it('the name is never consulted: a PNG header is PNG whatever the file was called', async () => {
    const png = await makeImage('png', 4, 4);
    expect(ext(png.subarray(0, 8))).toBe('png');
  });
});
