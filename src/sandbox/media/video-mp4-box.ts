/** ISO base media (MP4) boxes for one H.264 video track, moov before mdat. */

export interface Mp4Track {
  /** Displayed size in pixels. */
  width: number;
  height: number;
  /** Ticks per second of the media clock; every sample lasts `sampleDelta` ticks. */
  timescale: number;
  sampleDelta: number;
  /** Parameter sets as NAL units (header byte included, no start code). */
  sps: Uint8Array;
  pps: Uint8Array;
  /** One access unit per sample: 4-byte big-endian length + NAL unit, repeated. */
  samples: Uint8Array[];
}

const MOVIE_TIMESCALE = 1000;
const UNITY_MATRIX = [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];

/** Bytes of a big-endian field layout: [value, byteCount] pairs, strings as ASCII. */
function fields(...items: ([number, 1 | 2 | 3 | 4] | string | Uint8Array)[]): Uint8Array {
  const parts = items.map((item) => {
    if (typeof item === 'string') return new TextEncoder().encode(item);
    if (item instanceof Uint8Array) return item;
    const [value, size] = item;
    const bytes = new Uint8Array(size);
    for (let i = 0; i < size; i++) bytes[i] = (value >>> (8 * (size - 1 - i))) & 0xff;
    return bytes;
  });
  return concat(parts);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = concat(payload);
  return concat([fields([body.length + 8, 4], type), body]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Uint8Array[]): Uint8Array {
  return box(type, fields([version, 1], [flags, 3]), ...payload);
}

function u32(...values: number[]): Uint8Array {
  return fields(...values.map((v): [number, 4] => [v >>> 0, 4]));
}

/** The `avcC` decoder configuration: profile, compatibility and level are copied from the SPS. */
export function avcConfiguration(sps: Uint8Array, pps: Uint8Array): Uint8Array {
  return box(
    'avcC',
    fields([1, 1], [sps[1]!, 1], [sps[2]!, 1], [sps[3]!, 1], [0xff, 1], [0xe1, 1], [sps.length, 2]),
    sps,
    fields([1, 1], [pps.length, 2]),
    pps,
  );
}

/** The whole file: ftyp, moov (with chunk offsets pointing into mdat), mdat. */
export function muxMp4(track: Mp4Track): Uint8Array {
  const ftyp = box('ftyp', fields('isom', [0x200, 4], 'isom', 'iso2', 'avc1', 'mp41'));
  const mdatPayload = concat(track.samples);
  const mdatHeader = fields([mdatPayload.length + 8, 4], 'mdat');
  // The moov size does not depend on the offset value, so build once to measure, once for real.
  const probe = movie(track, 0);
  const moov = movie(track, ftyp.length + probe.length + mdatHeader.length);
  return concat([ftyp, moov, mdatHeader, mdatPayload]);
}

function movie(track: Mp4Track, firstSampleOffset: number): Uint8Array {
  const count = track.samples.length;
  const mediaDuration = count * track.sampleDelta;
  const movieDuration = Math.round((mediaDuration * MOVIE_TIMESCALE) / track.timescale);
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    u32(0, 0, MOVIE_TIMESCALE, movieDuration),
    fields([0x10000, 4], [0x100, 2], [0, 2]),
    u32(0, 0, ...UNITY_MATRIX, 0, 0, 0, 0, 0, 0, 2),
  );
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    u32(0, 0, 1, 0, movieDuration, 0, 0),
    fields([0, 2], [0, 2], [0, 2], [0, 2]),
    u32(...UNITY_MATRIX, track.width * 0x10000, track.height * 0x10000),
  );
  const mdhd = fullBox('mdhd', 0, 0, u32(0, 0, track.timescale, mediaDuration), fields([0x55c4, 2], [0, 2]));
  const hdlr = fullBox('hdlr', 0, 0, u32(0), fields('vide'), u32(0, 0, 0), fields('VideoHandler\0'));
  const vmhd = fullBox('vmhd', 0, 1, fields([0, 2], [0, 2], [0, 2], [0, 2]));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), sampleEntry(track)),
    fullBox('stts', 0, 0, u32(1, count, track.sampleDelta)),
    fullBox('stss', 0, 0, u32(count, ...track.samples.map((_, i) => i + 1))),
    fullBox('stsc', 0, 0, u32(1, 1, count, 1)),
    fullBox('stsz', 0, 0, u32(0, count, ...track.samples.map((s) => s.length))),
    fullBox('stco', 0, 0, u32(1, firstSampleOffset)),
  );
  const minf = box('minf', vmhd, dinf, stbl);
  const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, minf));
  return box('moov', mvhd, trak);
}

function sampleEntry(track: Mp4Track): Uint8Array {
  const name = 'I_PCM H.264';
  const compressorName = new Uint8Array(32);
  compressorName[0] = name.length;
  compressorName.set(new TextEncoder().encode(name), 1);
  return box(
    'avc1',
    fields([0, 4], [0, 2], [1, 2]), // reserved, data_reference_index
    fields([0, 2], [0, 2], [0, 4], [0, 4], [0, 4]), // pre_defined, reserved, pre_defined x3
    fields([track.width, 2], [track.height, 2], [0x480000, 4], [0x480000, 4], [0, 4], [1, 2]),
    compressorName,
    fields([0x18, 2], [0xffff, 2]),
    avcConfiguration(track.sps, track.pps),
  );
}
