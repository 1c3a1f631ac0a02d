import { describe, expect, it } from 'vitest';
import { readMp4FactsFromBytes } from '../../../src/core/inputs/mp4-facts.ts';
import { BitWriter } from '../../../src/sandbox/media/bit-writer.ts';
import { generateVideoMp4 } from '../../../src/sandbox/media/index.ts';
import { addEmulationPrevention } from '../../../src/sandbox/media/video-h264.ts';
import { renderScene, sceneFor } from '../../../src/sandbox/media/video-scene.ts';
import { parsePcmSlice, parseSps, removeEmulationPrevention } from './h264-pcm-reader.ts';
import { findBox, fullBoxWords, type Mp4Box, readBoxes } from './mp4-box-reader.ts';

function stbl(boxes: Mp4Box[], name: string): Mp4Box {
  return findBox(boxes, `moov/trak/mdia/minf/stbl/${name}`);
}

/** The samples of the file, as stsz and stco describe them. */
function samples(buf: Buffer, boxes: Mp4Box[]): Buffer[] {
  const stsz = stbl(boxes, 'stsz');
  const [, count] = fullBoxWords(buf, stsz, 2) as [number, number];
  const sizes = fullBoxWords(buf, stsz, 2 + count).slice(2);
  let offset = fullBoxWords(buf, stbl(boxes, 'stco'), 2)[1]!;
  return sizes.map((size) => {
    const sample = buf.subarray(offset, offset + size);
    offset += size;
    return sample;
  });
}

/** SPS and PPS NAL units from avcC. */
function parameterSets(buf: Buffer, boxes: Mp4Box[]): { sps: Buffer; pps: Buffer; avcC: Buffer } {
  const avcCBox = findBox(boxes, 'moov/trak/mdia/minf/stbl/stsd/avc1/avcC');
  const avcC = buf.subarray(avcCBox.payload, avcCBox.start + avcCBox.size);
  const spsLength = avcC.readUInt16BE(6);
  const sps = avcC.subarray(8, 8 + spsLength);
  const ppsLength = avcC.readUInt16BE(8 + spsLength + 1);
  const pps = avcC.subarray(8 + spsLength + 3, 8 + spsLength + 3 + ppsLength);
  return { sps, pps, avcC };
}

describe('generateVideoMp4 file structure', () => {
  const file = generateVideoMp4({ prompt: 'a red fox running through snow', seconds: 2 });
  const boxes = readBoxes(file);

  it('is ftyp, moov, mdat whose sizes add up to the file', () => {
    expect(boxes.map((b) => b.type)).toEqual(['ftyp', 'moov', 'mdat']);
    expect(boxes.reduce((sum, b) => sum + b.size, 0)).toBe(file.length);
    const ftyp = boxes[0]!;
    expect(file.toString('latin1', ftyp.payload, ftyp.payload + 4)).toBe('isom');
    const brands = file.toString('latin1', ftyp.payload + 8, ftyp.start + ftyp.size);
    expect(brands).toContain('avc1');
  });

  it('declares 20 frames of 160 x 96 at 10 fps lasting 2 s', async () => {
    // the movie's duration (mvhd), the video track's size (tkhd, a 'vide' handler) and its frames
    // (stsz), as the app's own MP4 reader finds them for a video input
    expect(await readMp4FactsFromBytes(file)).toEqual({
      width: 160,
      height: 96,
      durationSeconds: 2,
      frames: 20,
    });
    const [, , timescale, duration] = fullBoxWords(
      file,
      findBox(boxes, 'moov/trak/mdia/mdhd'),
      4,
    ) as number[];
    expect(duration! / timescale!).toBe(2);
    const [entries, count, delta] = fullBoxWords(file, stbl(boxes, 'stts'), 3) as number[];
    expect(entries).toBe(1);
    expect(count).toBe(20);
    expect((count! * delta!) / timescale!).toBe(2);
    const avc1 = findBox(boxes, 'moov/trak/mdia/minf/stbl/stsd/avc1');
    expect([file.readUInt16BE(avc1.payload + 24), file.readUInt16BE(avc1.payload + 26)]).toEqual([160, 96]);
  });

  it('has sample tables that agree with mdat: sizes, one chunk offset, every sample a sync sample', () => {
    const mdat = boxes[2]!;
    const list = samples(file, boxes);
    expect(list).toHaveLength(20);
    expect(list.reduce((sum, s) => sum + s.length, 0)).toBe(mdat.size - 8);
    expect(fullBoxWords(file, stbl(boxes, 'stco'), 2)).toEqual([1, mdat.payload]);
    expect(fullBoxWords(file, stbl(boxes, 'stsc'), 4)).toEqual([1, 1, 20, 1]);
    const stss = fullBoxWords(file, stbl(boxes, 'stss'), 21);
    expect(stss).toEqual([20, ...Array.from({ length: 20 }, (_, i) => i + 1)]);
    for (const sample of list) {
      expect(sample.readUInt32BE(0)).toBe(sample.length - 4);
      expect(sample[4]! & 0x1f).toBe(5);
    }
  });

  it('carries an avcC whose SPS describes a Constrained Baseline 160 x 96 stream', () => {
    const { sps, pps, avcC } = parameterSets(file, boxes);
    expect(avcC[0]).toBe(1);
    expect([avcC[1], avcC[2], avcC[3]]).toEqual([sps[1], sps[2], sps[3]]);
    expect(avcC[4]! & 3).toBe(3);
    expect(avcC[5]! & 0x1f).toBe(1);
    expect(sps[0]! & 0x1f).toBe(7);
    expect(pps[0]! & 0x1f).toBe(8);
    const info = parseSps(sps);
    expect(info).toMatchObject({ profile: 66, widthMbs: 10, heightMbs: 6, width: 160, height: 96 });
    expect(info.level).toBeGreaterThanOrEqual(20);
  });

  it('codes every macroblock as I_PCM holding exactly the rendered picture', () => {
    const { sps } = parameterSets(file, boxes);
    const info = parseSps(sps);
    const scene = sceneFor('a red fox running through snow', 160, 96);
    const list = samples(file, boxes);
    const decoded = list.map((sample) => parsePcmSlice(sample.subarray(4), info));
    for (const index of [0, 7, 19]) {
      expect(
        Buffer.from(decoded[index]!.y).equals(Buffer.from(renderScene(scene, index / 10, 160, 96).y)),
      ).toBe(true);
    }
    expect(decoded.map((d) => d.idrPicId).slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(Buffer.from(decoded[0]!.y).equals(Buffer.from(decoded[10]!.y))).toBe(false);
  });
});

describe('generateVideoMp4 options', () => {
  it('crops a size that is not a multiple of 16 and honours fps', async () => {
    const file = generateVideoMp4({ prompt: 'ocean', seconds: 1.5, width: 250, height: 142, fps: 8 });
    const boxes = readBoxes(file);
    const info = parseSps(parameterSets(file, boxes).sps);
    expect(info).toMatchObject({ widthMbs: 16, heightMbs: 9, width: 250, height: 142 });
    expect(await readMp4FactsFromBytes(file)).toEqual({
      width: 250,
      height: 142,
      durationSeconds: 1.5,
      frames: 12,
    });
    expect(samples(file, boxes)).toHaveLength(12);
  });

  it('gives different prompts different pictures, the same prompt the same file', () => {
    const a = generateVideoMp4({ prompt: 'sunrise over hills', seconds: 0.5 });
    expect(generateVideoMp4({ prompt: 'sunrise over hills', seconds: 0.5 }).equals(a)).toBe(true);
    expect(generateVideoMp4({ prompt: 'city at night', seconds: 0.5 }).equals(a)).toBe(false);
  });

  it('refuses impossible parameters', () => {
    expect(() => generateVideoMp4({ prompt: 'x', seconds: 0 })).toThrow(RangeError);
    expect(() => generateVideoMp4({ prompt: 'x', seconds: 1, fps: 0 })).toThrow(RangeError);
    expect(() => generateVideoMp4({ prompt: 'x', seconds: 1, width: 5000 })).toThrow(RangeError);
  });
});

describe('H.264 bit-level helpers', () => {
  it('writes Exp-Golomb codes', () => {
    const w = new BitWriter();
    w.ue(0).ue(1).ue(25).se(-1).se(2); // 1 010 000011010 011 00100
    w.trailingBits();
    const bits = Array.from(w.toBytes(), (b) => b.toString(2).padStart(8, '0')).join('');
    expect(bits).toBe(`1010000011010011001001${'0'.repeat(2)}`);
  });

  it('inserts and removes emulation-prevention bytes', () => {
    const rbsp = Uint8Array.from([0, 0, 1, 0, 0, 0, 0, 0, 3, 0, 0, 4]);
    const escaped = addEmulationPrevention(rbsp);
    expect(Array.from(escaped)).toEqual([0, 0, 3, 1, 0, 0, 3, 0, 0, 3, 0, 3, 0, 0, 4]);
    expect(Array.from(removeEmulationPrevention(escaped))).toEqual(Array.from(rbsp));
    expect(Array.from(addEmulationPrevention(Uint8Array.from([5, 0])))).toEqual([5, 0, 3]);
  });
});
