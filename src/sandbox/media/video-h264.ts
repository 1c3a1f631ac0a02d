/**
 * A minimal H.264 encoder: Constrained Baseline, one IDR slice per picture, every macroblock I_PCM
 * (the samples carried uncompressed). Large, but exact and trivially decodable by any player.
 */
import { BitWriter } from './bit-writer.ts';

/** A 4:2:0 picture whose size is a multiple of 16 in both directions. */
export interface YuvPicture {
  width: number;
  height: number;
  /** width * height luma samples. */
  y: Uint8Array;
  /** (width / 2) * (height / 2) samples each. */
  u: Uint8Array;
  v: Uint8Array;
}

export interface StreamConfig {
  /** Coded size: multiples of 16. */
  codedWidth: number;
  codedHeight: number;
  /** Displayed size (even, at most the coded size): the rest is cropped away at the right and bottom. */
  width: number;
  height: number;
  fps: number;
}

export const PROFILE_BASELINE = 66;
/** constraint_set0_flag and constraint_set1_flag: Constrained Baseline. */
export const CONSTRAINT_FLAGS = 0xc0;

const NAL_SLICE_IDR = 5;
const NAL_SPS = 7;
const NAL_PPS = 8;
const MB_TYPE_I_PCM = 25;
const SLICE_TYPE_I_ALL = 7;
const LOG2_MAX_FRAME_NUM = 4;
const PCM_BYTES_PER_MB = 384;

/** [level_idc, MaxMBPS, MaxFS, MaxBR in kbit/s] from Table A-1. */
const LEVELS: [number, number, number, number][] = [
  [10, 1485, 99, 64],
  [11, 3000, 396, 192],
  [12, 6000, 396, 384],
  [13, 11880, 396, 768],
  [20, 11880, 396, 2000],
  [21, 19800, 792, 4000],
  [22, 20250, 1620, 4000],
  [30, 40500, 1620, 10000],
  [31, 108000, 3600, 14000],
  [32, 216000, 5120, 20000],
  [40, 245760, 8192, 20000],
  [41, 245760, 8192, 50000],
  [42, 522240, 8704, 50000],
  [50, 589824, 22080, 135000],
  [51, 983040, 36864, 240000],
  [52, 2073600, 36864, 240000],
];

/**
 * The lowest level whose frame size, macroblock rate and bit rate admit this I_PCM stream. I_PCM
 * pictures are about twice the size the minimum compression ratio allows, so the macroblock rate
 * is counted double.
 */
export function chooseLevel(config: StreamConfig): number {
  const widthMbs = config.codedWidth / 16;
  const heightMbs = config.codedHeight / 16;
  const mbs = widthMbs * heightMbs;
  const bitsPerSecond = mbs * (PCM_BYTES_PER_MB + 2) * 8 * config.fps;
  for (const [level, maxMbps, maxFs, maxBr] of LEVELS) {
    const side = Math.sqrt(maxFs * 8);
    const fits = mbs <= maxFs && widthMbs <= side && heightMbs <= side;
    if (fits && 2 * mbs * config.fps <= maxMbps && bitsPerSecond <= maxBr * 1200) return level;
  }
  return 52;
}

/** Sequence parameter set NAL unit (header included, emulation prevention applied). */
export function sequenceParameterSet(config: StreamConfig): Uint8Array {
  const w = new BitWriter();
  w.bits(PROFILE_BASELINE, 8).bits(CONSTRAINT_FLAGS, 8).bits(chooseLevel(config), 8);
  w.ue(0); // seq_parameter_set_id
  w.ue(LOG2_MAX_FRAME_NUM - 4);
  w.ue(2); // pic_order_cnt_type: output order = decoding order
  w.ue(1); // max_num_ref_frames
  w.bit(0); // gaps_in_frame_num_value_allowed_flag
  w.ue(config.codedWidth / 16 - 1);
  w.ue(config.codedHeight / 16 - 1);
  w.bit(1); // frame_mbs_only_flag
  w.bit(1); // direct_8x8_inference_flag
  const cropRight = (config.codedWidth - config.width) / 2;
  const cropBottom = (config.codedHeight - config.height) / 2;
  if (cropRight > 0 || cropBottom > 0) {
    w.bit(1).ue(0).ue(cropRight).ue(0).ue(cropBottom);
  } else {
    w.bit(0);
  }
  w.bit(0); // vui_parameters_present_flag
  return nalUnit(3, NAL_SPS, w.trailingBits().toBytes());
}

/** Picture parameter set NAL unit: CAVLC, no slice groups, deblocking control present. */
export function pictureParameterSet(): Uint8Array {
  const w = new BitWriter();
  w.ue(0).ue(0); // pic_parameter_set_id, seq_parameter_set_id
  w.bit(0); // entropy_coding_mode_flag: CAVLC
  w.bit(0); // bottom_field_pic_order_in_frame_present_flag
  w.ue(0); // num_slice_groups_minus1
  w.ue(0).ue(0); // num_ref_idx_l0/l1_default_active_minus1
  w.bit(0).bits(0, 2); // weighted_pred_flag, weighted_bipred_idc
  w.se(0).se(0).se(0); // pic_init_qp_minus26, pic_init_qs_minus26, chroma_qp_index_offset
  w.bit(1); // deblocking_filter_control_present_flag
  w.bit(0); // constrained_intra_pred_flag
  w.bit(0); // redundant_pic_cnt_present_flag
  return nalUnit(3, NAL_PPS, w.trailingBits().toBytes());
}

/** One picture as a single IDR slice of I_PCM macroblocks. `idrPicId` must differ between neighbours. */
export function idrSlice(picture: YuvPicture, idrPicId: number): Uint8Array {
  const widthMbs = picture.width / 16;
  const heightMbs = picture.height / 16;
  const w = new BitWriter(widthMbs * heightMbs * (PCM_BYTES_PER_MB + 2) + 16);
  w.ue(0); // first_mb_in_slice
  w.ue(SLICE_TYPE_I_ALL);
  w.ue(0); // pic_parameter_set_id
  w.bits(0, LOG2_MAX_FRAME_NUM); // frame_num
  w.ue(idrPicId);
  w.bit(0).bit(0); // dec_ref_pic_marking: no_output_of_prior_pics_flag, long_term_reference_flag
  w.se(0); // slice_qp_delta
  w.ue(1); // disable_deblocking_filter_idc: off
  const block = new Uint8Array(PCM_BYTES_PER_MB);
  for (let mbY = 0; mbY < heightMbs; mbY++) {
    for (let mbX = 0; mbX < widthMbs; mbX++) {
      w.ue(MB_TYPE_I_PCM).alignZero();
      w.raw(pcmSamples(picture, mbX, mbY, block));
    }
  }
  return nalUnit(3, NAL_SLICE_IDR, w.trailingBits().toBytes());
}

/** The 256 luma then 64 Cb and 64 Cr samples of one macroblock, in raster order. */
function pcmSamples(picture: YuvPicture, mbX: number, mbY: number, block: Uint8Array): Uint8Array {
  let k = 0;
  for (let row = 0; row < 16; row++) {
    const start = (mbY * 16 + row) * picture.width + mbX * 16;
    block.set(picture.y.subarray(start, start + 16), k);
    k += 16;
  }
  const chromaWidth = picture.width / 2;
  for (const plane of [picture.u, picture.v]) {
    for (let row = 0; row < 8; row++) {
      const start = (mbY * 8 + row) * chromaWidth + mbX * 8;
      block.set(plane.subarray(start, start + 8), k);
      k += 8;
    }
  }
  return block;
}

/** Header byte plus the payload with emulation-prevention bytes inserted. */
export function nalUnit(refIdc: number, type: number, rbsp: Uint8Array): Uint8Array {
  const payload = addEmulationPrevention(rbsp);
  const out = new Uint8Array(payload.length + 1);
  out[0] = (refIdc << 5) | type;
  out.set(payload, 1);
  return out;
}

/** Inserts 0x03 after every two zero bytes that are followed by a byte of 0..3 (or end the payload). */
export function addEmulationPrevention(rbsp: Uint8Array): Uint8Array {
  const out = new Uint8Array(rbsp.length + Math.ceil(rbsp.length / 2) + 1);
  let n = 0;
  let zeros = 0;
  for (const byte of rbsp) {
    if (zeros >= 2 && byte <= 3) {
      out[n++] = 3;
      zeros = 0;
    }
    out[n++] = byte;
    zeros = byte === 0 ? zeros + 1 : 0;
  }
  if (zeros > 0) out[n++] = 3;
  return out.slice(0, n);
}
