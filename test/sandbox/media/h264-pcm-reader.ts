/** Test helper: an independent reader of the H.264 syntax the generator writes (SPS and I_PCM slices). */

export function removeEmulationPrevention(payload: Uint8Array): Uint8Array {
  const out: number[] = [];
  let zeros = 0;
  for (const byte of payload) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    out.push(byte);
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  return Uint8Array.from(out);
}

export class BitReader {
  private position = 0;
  private readonly data: Uint8Array;

  constructor(data: Uint8Array) {
    this.data = data;
  }

  bit(): number {
    const byte = this.data[this.position >> 3];
    if (byte === undefined) throw new Error('read past the end');
    const value = (byte >> (7 - (this.position & 7))) & 1;
    this.position++;
    return value;
  }

  bits(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) value = value * 2 + this.bit();
    return value;
  }

  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) zeros++;
    return 2 ** zeros - 1 + this.bits(zeros);
  }

  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -k / 2;
  }

  align(): void {
    while (this.position % 8 !== 0) {
      if (this.bit() !== 0) throw new Error('non-zero alignment bit');
    }
  }

  byte(): number {
    return this.bits(8);
  }

  get bitsLeft(): number {
    return this.data.length * 8 - this.position;
  }
}

export interface SpsInfo {
  profile: number;
  level: number;
  log2MaxFrameNum: number;
  pocType: number;
  widthMbs: number;
  heightMbs: number;
  width: number;
  height: number;
}

/** Parses a Baseline SPS NAL unit (header byte included). */
export function parseSps(nal: Uint8Array): SpsInfo {
  const r = new BitReader(removeEmulationPrevention(nal.subarray(1)));
  const profile = r.bits(8);
  r.bits(8);
  const level = r.bits(8);
  r.ue();
  const log2MaxFrameNum = r.ue() + 4;
  const pocType = r.ue();
  if (pocType !== 2) throw new Error(`test reader handles POC type 2 only, got ${pocType}`);
  r.ue();
  r.bit();
  const widthMbs = r.ue() + 1;
  const heightMbs = r.ue() + 1;
  if (r.bit() !== 1) throw new Error('frame_mbs_only_flag must be 1');
  r.bit();
  let crop = [0, 0, 0, 0];
  if (r.bit() === 1) crop = [r.ue(), r.ue(), r.ue(), r.ue()];
  r.bit();
  if (r.bit() !== 1) throw new Error('missing SPS stop bit');
  const [left, right, top, bottom] = crop as [number, number, number, number];
  return {
    profile,
    level,
    log2MaxFrameNum,
    pocType,
    widthMbs,
    heightMbs,
    width: widthMbs * 16 - 2 * (left + right),
    height: heightMbs * 16 - 2 * (top + bottom),
  };
}

export interface PcmPicture {
  idrPicId: number;
  /** Luma plane of the coded size. */
  y: Uint8Array;
}

/** Parses one IDR slice of I_PCM macroblocks and rebuilds its luma plane. */
export function parsePcmSlice(nal: Uint8Array, sps: SpsInfo): PcmPicture {
  if ((nal[0]! & 0x1f) !== 5) throw new Error(`expected an IDR slice, got NAL type ${nal[0]! & 0x1f}`);
  const r = new BitReader(removeEmulationPrevention(nal.subarray(1)));
  if (r.ue() !== 0) throw new Error('first_mb_in_slice must be 0');
  const sliceType = r.ue();
  if (sliceType !== 7 && sliceType !== 2) throw new Error(`expected an I slice, got ${sliceType}`);
  r.ue();
  r.bits(sps.log2MaxFrameNum);
  const idrPicId = r.ue();
  r.bit();
  r.bit();
  r.se();
  if (r.ue() !== 1) r.se(); // disable_deblocking_filter_idc (offsets follow unless it is 1)
  const width = sps.widthMbs * 16;
  const y = new Uint8Array(width * sps.heightMbs * 16);
  for (let mb = 0; mb < sps.widthMbs * sps.heightMbs; mb++) {
    const mbType = r.ue();
    if (mbType !== 25) throw new Error(`macroblock ${mb} has mb_type ${mbType}, not I_PCM`);
    r.align();
    const mbX = mb % sps.widthMbs;
    const mbY = Math.floor(mb / sps.widthMbs);
    for (let i = 0; i < 256; i++) y[(mbY * 16 + (i >> 4)) * width + mbX * 16 + (i & 15)] = r.byte();
    for (let i = 0; i < 128; i++) r.byte();
  }
  if (r.bit() !== 1) throw new Error('missing slice stop bit');
  if (r.bitsLeft >= 8) throw new Error(`${r.bitsLeft} bits left after the slice`);
  return { idrPicId, y };
}
