/**
 * Parameters inside result files (issue 22, item 2): each kind that carries them takes the record
 * into a copy and gives it back, the file stays what it was (same type, still readable), and a
 * hostile or broken file gets a problem in words, read in bounded pieces.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readMp4Facts, readMp4FactsFromBytes } from '../../src/core/inputs/mp4-facts.ts';
import { embeddingEdits, readEmbeddedParams, sniffSource } from '../../src/core/recall/embedded-params.ts';
import { applyEdits, bytesSource, type ReadBytesAt } from '../../src/core/recall/file-edits.ts';
import { RECALL_FORMAT } from '../../src/core/recall/recall-record.ts';
import { generateGlbModel, generateSongWav, generateVideoMp4 } from '../../src/sandbox/media/index.ts';
import { makeImage, makeMp3Frames } from '../inputs/input-fixtures.ts';
import { readWavInfo } from '../support/wav-info.ts';

const RECORD = {
  format: RECALL_FORMAT,
  app_version: '0.1.0',
  id: 'task-1',
  title: 'Café at dusk ☕',
  model: 'Qubico/flux1-schnell',
  task_type: 'txt2img',
  output_index: 0,
  request: { model: 'Qubico/flux1-schnell', task_type: 'txt2img', input: { prompt: 'a café at dusk ☕ 🌆' } },
  inputs: [],
};
const JSON_TEXT = JSON.stringify(RECORD);

async function embedded(original: Uint8Array, json = JSON_TEXT): Promise<Uint8Array> {
  const copy = Buffer.from(original);
  const read = bytesSource(original);
  const edits = await embeddingEdits(read, original.length, await sniffSource(read), json, '0.1.0');
  expect(edits, 'the kind takes embedded parameters').not.toBeNull();
  const out = applyEdits(original, edits ?? []);
  expect(Buffer.compare(Buffer.from(original), copy), 'the original is untouched').toBe(0);
  return out;
}

async function recalled(bytes: Uint8Array) {
  return readEmbeddedParams(bytesSource(bytes), bytes.length);
}

/** A record read back equals the one written. */
async function expectRoundTrip(original: Uint8Array): Promise<Uint8Array> {
  const out = await embedded(original);
  expect((await sniffSource(bytesSource(out)))?.ext).toBe((await sniffSource(bytesSource(original)))?.ext);
  const reading = await recalled(out);
  expect(reading.found).toEqual(RECORD);
  expect((await recalled(original)).found).toBeNull();
  return out;
}

/** Top-level MP4 boxes by type, in order. */
function topBoxes(bytes: Buffer): { type: string; bytes: Buffer }[] {
  const out: { type: string; bytes: Buffer }[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = bytes.readUInt32BE(at);
    out.push({ type: bytes.toString('latin1', at + 4, at + 8), bytes: bytes.subarray(at, at + size) });
    at += size;
  }
  return out;
}

describe('parameters embedded in a result file, per kind', () => {
  it('PNG: an iTXt chunk after IHDR; the picture still decodes to the same pixels', async () => {
    const png = await makeImage('png', 24, 16);
    const out = await expectRoundTrip(png);
    const [before, after] = await Promise.all([sharp(png).raw().toBuffer(), sharp(out).raw().toBuffer()]);
    expect(Buffer.compare(before, after)).toBe(0);
  });

  it('WAV: a LIST/INFO comment after the audio; the sound is the same', async () => {
    const wav = generateSongWav({ stylePrompt: 'lofi', lyrics: '', durationSeconds: 1 });
    const out = Buffer.from(await expectRoundTrip(wav));
    expect(out.readUInt32LE(4)).toBe(out.length - 8);
    expect(readWavInfo(out)).toEqual(readWavInfo(wav));
  });

  it('MP3: a TXXX frame in a new ID3v2.4 tag, or first in the file’s own ID3v2.3 tag', async () => {
    const bare = makeMp3Frames();
    const out = Buffer.from(await expectRoundTrip(bare));
    expect(out.subarray(out.length - bare.length).equals(bare)).toBe(true);
    // an ID3v2.3 tag with one title frame (size 6: encoding + "Song")
    const title = Buffer.concat([Buffer.from('TIT2\0\0\0\x05\0\0\0Song', 'latin1')]);
    const header = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, title.length]);
    const tagged = Buffer.concat([header, title, bare]);
    const out3 = Buffer.from(await expectRoundTrip(tagged));
    expect(out3.subarray(out3.length - bare.length - title.length).equals(Buffer.concat([title, bare]))).toBe(
      true,
    );
    // ID3v2.3 has no UTF-8: the JSON is ASCII with escapes, the prompt comes back whole
    expect(out3.includes(Buffer.from('\\u2615', 'latin1'))).toBe(true);
  });

  it('MP4 with moov first (fast start): a top-level meta at the end; the movie reads the same', async () => {
    const mp4 = generateVideoMp4({ prompt: 'a kite', seconds: 1 });
    const out = Buffer.from(await expectRoundTrip(mp4));
    expect(out.subarray(0, mp4.length).equals(mp4)).toBe(true);
    expect(topBoxes(out).map((b) => b.type)).toEqual(['ftyp', 'moov', 'mdat', 'meta']);
    expect(await readMp4FactsFromBytes(out)).toEqual(await readMp4FactsFromBytes(mp4));
  });

  it('MP4 with moov last: the meta goes into moov’s udta, nothing before moov moves', async () => {
    const boxes = topBoxes(generateVideoMp4({ prompt: 'a kite', seconds: 1 }));
    const [ftyp, moov, mdat] = ['ftyp', 'moov', 'mdat'].map(
      (t) => boxes.find((b) => b.type === t)?.bytes as Buffer,
    );
    const mp4 = Buffer.concat([ftyp as Buffer, mdat as Buffer, moov as Buffer]);
    const out = Buffer.from(await expectRoundTrip(mp4));
    const head = (ftyp as Buffer).length + (mdat as Buffer).length;
    expect(out.subarray(0, head).equals(mp4.subarray(0, head))).toBe(true);
    expect(topBoxes(out).map((b) => b.type)).toEqual(['ftyp', 'mdat', 'moov']);
    expect(await readMp4FactsFromBytes(out)).toEqual(await readMp4FactsFromBytes(mp4));
  });

  it('GLB: asset.extras of the glTF JSON; the model keeps its buffers and length', async () => {
    const glb = generateGlbModel({ seedText: 'a teapot' });
    const out = Buffer.from(await expectRoundTrip(glb));
    expect(out.readUInt32LE(8)).toBe(out.length);
    const json = JSON.parse(out.toString('utf8', 20, 20 + out.readUInt32LE(12)));
    const original = JSON.parse(glb.toString('utf8', 20, 20 + glb.readUInt32LE(12)));
    expect(json.asset.generator).toBe(original.asset.generator);
    expect(json.meshes).toEqual(original.meshes);
    // the binary chunk is the same bytes
    const binOld = glb.subarray(20 + glb.readUInt32LE(12));
    expect(out.subarray(out.length - binOld.length).equals(binOld)).toBe(true);
  });

  it('a JPEG carries none (recalled by checksum instead): no edits, nothing found', async () => {
    const jpeg = await makeImage('jpeg', 8, 8);
    const read = bytesSource(jpeg);
    expect(await embeddingEdits(read, jpeg.length, await sniffSource(read), JSON_TEXT, '0.1.0')).toBeNull();
    expect(await recalled(jpeg)).toMatchObject({ found: null, problem: null });
  });
});

/** A PNG with one text chunk of ours holding `data` (its CRC right unless `badCrc`). */
async function pngWith(text: string, options: { badCrc?: boolean; claimed?: number } = {}): Promise<Buffer> {
  const out = Buffer.from(await embedded(await makeImage('png', 4, 4), text));
  if (options.badCrc) out[33 + 8 + 30] = (out[33 + 8 + 30] ?? 0) ^ 0xff;
  if (options.claimed !== undefined) out.writeUInt32BE(options.claimed, 33);
  return out;
}

describe('hostile or broken files: a problem in words, never a crash', () => {
  it('PNG: bad JSON, wrong types, a damaged chunk, a chunk past the end, one over the cap', async () => {
    expect((await recalled(await pngWith('{"format": oops'))).found).toBeNull();
    expect(await recalled(await pngWith('{"format": oops'))).toMatchObject({
      problem: expect.stringMatching(/^its PNG text chunk is not JSON/),
    });
    expect(await recalled(await pngWith(JSON.stringify({ ...RECORD, model: 5 })))).toMatchObject({
      problem:
        'its PNG text chunk is not a task this app wrote (model: Invalid input: expected string, received number)',
    });
    expect(await recalled(await pngWith(JSON.stringify({ ...RECORD, format: 'other/1' })))).toMatchObject({
      problem: expect.stringContaining('not a task this app wrote (format:'),
    });
    expect(await recalled(await pngWith(JSON_TEXT, { badCrc: true }))).toMatchObject({
      problem: 'its parameters chunk is damaged (its checksum does not match)',
    });
    expect(await recalled(await pngWith(JSON_TEXT, { claimed: 0x7ffffff0 }))).toMatchObject({
      problem: 'its PNG chunk at byte 33 runs past the end of the file',
    });
    const huge = JSON.stringify({ ...RECORD, title: 'x'.repeat(2_100_000) });
    const png = await makeImage('png', 4, 4);
    const read = bytesSource(png);
    expect(await embeddingEdits(read, png.length, await sniffSource(read), huge, '0.1.0')).toBeNull();
  });

  it('WAV, MP3, MP4 and GLB whose sizes lie', async () => {
    const wav = Buffer.from(
      await embedded(generateSongWav({ stylePrompt: 'x', lyrics: '', durationSeconds: 1 })),
    );
    const list = wav.lastIndexOf('ICMT');
    wav.writeUInt32LE(0x7ffffff0, list + 4);
    expect(await recalled(wav)).toMatchObject({
      problem: expect.stringMatching(/^its INFO chunk at byte \d+ runs past its end$/),
    });

    const mp3 = Buffer.from(await embedded(makeMp3Frames()));
    mp3.set([0x7f, 0x7f, 0x7f, 0x7f], 14); // the TXXX frame's size
    expect(await recalled(mp3)).toMatchObject({
      problem: 'its ID3 frame TXXX at byte 10 runs past the end of its tag',
    });

    const mp4 = Buffer.from(await embedded(generateVideoMp4({ prompt: 'a kite', seconds: 1 })));
    mp4.writeUInt32BE(0x7ffffff0, mp4.lastIndexOf('meta') - 4);
    expect(await recalled(mp4)).toMatchObject({ problem: expect.stringContaining('"meta" box at byte') });

    const glb = Buffer.from(generateGlbModel({ seedText: 'x' }));
    glb.writeUInt32LE(0x7ffffff0, 12);
    expect(await recalled(glb)).toMatchObject({
      problem: 'its glTF JSON is 2147483632 bytes, over the 16000000 read',
    });
    const extras = Buffer.from(
      await embedded(generateGlbModel({ seedText: 'x' }), JSON.stringify({ ...RECORD, request: 'no' })),
    );
    expect(await recalled(extras)).toMatchObject({
      problem: expect.stringContaining('glTF extras is not a task this app wrote (request:'),
    });
  });

  it('JSON nested 100,000 deep (PNG record, GLB extras): a problem in words, never a stack overflow (third review of issue 22)', async () => {
    // JSON.parse takes it; writing it again (the CLI's --json, the GLB's record, the call's answer) overflowed
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const record = JSON_TEXT.replace('"input":{', `"input":{"zz":${deep},`);
    expect(await recalled(await pngWith(record))).toMatchObject({
      found: null,
      problem: 'its PNG text chunk nests more than 32 levels deep',
    });
    // a GLB whose asset.extras holds it
    const glb = Buffer.from(generateGlbModel({ seedText: 'x' }));
    const jsonLength = glb.readUInt32LE(12);
    const gltf = JSON.parse(glb.toString('utf8', 20, 20 + jsonLength));
    gltf.asset.extras = { 'media-task-studio': 'DEEP' };
    let text = JSON.stringify(gltf).replace('"DEEP"', deep);
    text += ' '.repeat((4 - (text.length % 4)) % 4);
    const rest = glb.subarray(20 + jsonLength);
    const head = Buffer.alloc(20);
    head.write('glTF', 0, 'latin1');
    head.writeUInt32LE(2, 4);
    head.writeUInt32LE(20 + text.length + rest.length, 8);
    head.writeUInt32LE(text.length, 12);
    head.write('JSON', 16, 'latin1');
    const hostile = Buffer.concat([head, Buffer.from(text, 'latin1'), rest]);
    expect(await recalled(hostile)).toMatchObject({
      found: null,
      problem: 'its glTF JSON nests more than 64 levels deep',
    });
    // the app's own records are 4 deep: still read
    expect((await recalled(await embedded(generateGlbModel({ seedText: 'x' })))).found).toEqual(RECORD);
  });

  it('an MP4 of 511 udta boxes of 511 meta boxes: refused after 25,000 reads, not 780,000 (third review of issue 22)', async () => {
    const box = (type: string, ...body: Buffer[]) => {
      const content = Buffer.concat(body);
      const header = Buffer.alloc(8);
      header.writeUInt32BE(8 + content.length, 0);
      header.write(type, 4, 'latin1');
      return Buffer.concat([header, content]);
    };
    const udta = box('udta', ...Array<Buffer>(511).fill(box('meta', Buffer.alloc(4))));
    const mp4 = Buffer.concat([
      box('ftyp', Buffer.from('isom\0\0\0\0isom', 'latin1')),
      box('moov', ...Array<Buffer>(511).fill(udta)),
    ]);
    let reads = 0;
    const source = bytesSource(mp4);
    const counted: ReadBytesAt = (position, length) => {
      reads += 1;
      return source(position, length);
    };
    expect(await readEmbeddedParams(counted, mp4.length)).toMatchObject({
      found: null,
      problem: 'it has more parts than the app looks through for its parameters (25,000 reads)',
    });
    // the sniff of its first bytes, then at most 25,000
    expect(reads).toBeLessThanOrEqual(25_001);
  });

  it('a 500 MB video is read in small pieces, never whole', async () => {
    const mp4 = Buffer.from(await embedded(generateVideoMp4({ prompt: 'a kite', seconds: 1 })));
    // the same file with a 500 MB mdat: its bytes are zeros the source makes up as they are read
    const boxes = topBoxes(mp4);
    const before = Buffer.concat(
      boxes.filter((b) => b.type !== 'mdat' && b.type !== 'meta').map((b) => b.bytes),
    );
    const mdatSize = 500_000_000;
    const mdatHeader = Buffer.alloc(8);
    mdatHeader.writeUInt32BE(mdatSize, 0);
    mdatHeader.write('mdat', 4, 'latin1');
    const meta = boxes.find((b) => b.type === 'meta')?.bytes as Buffer;
    const size = before.length + mdatSize + meta.length;
    let bytesRead = 0;
    const read: ReadBytesAt = async (position, length) => {
      const out = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      for (let i = 0; i < out.length; i++) {
        const at = position + i;
        if (at < before.length) out[i] = before[at] as number;
        else if (at < before.length + 8) out[i] = mdatHeader[at - before.length] as number;
        else if (at >= before.length + mdatSize) out[i] = meta[at - before.length - mdatSize] as number;
      }
      bytesRead += out.length;
      return out;
    };
    expect((await readEmbeddedParams(read, size)).found).toEqual(RECORD);
    expect(bytesRead).toBeLessThan(64 * 1024);
    expect((await readMp4Facts(read, size)).frames).toBeGreaterThan(0);
  });
});
