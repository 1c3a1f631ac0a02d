/**
 * Reads the facts of an MP4 (or QuickTime) video that input limits need: the video track's
 * width and height, the duration and the frame count. Only the boxes it needs are read, each with
 * a bounded positional read (ftyp … moov > mvhd, trak > tkhd, mdia > hdlr, mdhd, minf > stbl >
 * stsz or stts), so a hostile file costs a few hundred small reads at most and never a large
 * allocation. A file that is cut short or lies about its boxes gets an Mp4ReadError in words.
 */

import { asciiAt, uint32be } from '../../shared/media/byte-fields.ts';

export interface Mp4Facts {
  width: number;
  height: number;
  /** Seconds, from the movie header (the video track's media header when the movie has none). */
  durationSeconds: number;
  frames: number;
}

export class Mp4ReadError extends Error {
  override name = 'Mp4ReadError';
}

/** Reads up to `length` bytes at `position`; shorter only at the end of the source. */
export type ReadBytesAt = (position: number, length: number) => Promise<Uint8Array>;

/** Boxes looked at on one level before giving up (a real moov has a handful). */
const MAX_BOXES_PER_LEVEL = 512;
/** Tracks looked at. */
const MAX_TRACKS = 16;
/** stts entries summed when stsz gives no count (a constant frame rate has one). */
const MAX_STTS_ENTRIES = 4096;

export interface Mp4Box {
  type: string;
  /** Where its header starts. */
  at: number;
  /** Where its payload starts and ends. */
  start: number;
  end: number;
}

/** An MP4's facts from a source of `size` bytes. */
export async function readMp4Facts(read: ReadBytesAt, size: number): Promise<Mp4Facts> {
  const moov = (await childBoxes(read, 0, size, 'the file')).find((b) => b.type === 'moov');
  if (!moov) throw new Mp4ReadError('it has no movie header (moov box): the file may be cut short');
  const children = await childBoxes(read, moov.start, moov.end, 'moov');
  const movie = await movieDuration(
    read,
    children.find((b) => b.type === 'mvhd'),
  );
  const tracks = children.filter((b) => b.type === 'trak').slice(0, MAX_TRACKS);
  for (const trak of tracks) {
    const video = await videoTrack(read, trak);
    if (video === null) continue;
    const durationSeconds = movie ?? video.durationSeconds;
    if (durationSeconds === null) throw new Mp4ReadError('its duration is not given');
    return { width: video.width, height: video.height, durationSeconds, frames: video.frames };
  }
  throw new Mp4ReadError('it has no video track');
}

/** An MP4's facts from bytes in memory (a Base64 input). */
export function readMp4FactsFromBytes(bytes: Uint8Array): Promise<Mp4Facts> {
  return readMp4Facts(async (position, length) => bytes.subarray(position, position + length), bytes.length);
}

/** The boxes between `start` and `end` (one level), each checked against its parent; Mp4ReadError in words. */
export async function childBoxes(
  read: ReadBytesAt,
  start: number,
  end: number,
  parent: string,
): Promise<Mp4Box[]> {
  const boxes: Mp4Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    if (boxes.length >= MAX_BOXES_PER_LEVEL) throw new Mp4ReadError(`${parent} holds too many boxes`);
    const header = await read(at, 16);
    if (header.length < 8) break;
    const type = asciiAt(header, 4, 4);
    let headerSize = 8;
    let boxSize = uint32be(header, 0);
    if (boxSize === 1) {
      if (header.length < 16) throw cutShort(type, at);
      const high = uint32be(header, 8);
      if (high > 0x1fffff)
        throw new Mp4ReadError(`its ${printable(type)} box at byte ${at} claims an impossible size`);
      boxSize = high * 2 ** 32 + uint32be(header, 12);
      headerSize = 16;
    } else if (boxSize === 0) {
      boxSize = end - at; // to the end of its parent
    }
    if (boxSize < headerSize)
      throw new Mp4ReadError(`its ${printable(type)} box at byte ${at} has a broken size (${boxSize})`);
    if (at + boxSize > end) throw cutShort(type, at);
    boxes.push({ type, at, start: at + headerSize, end: at + boxSize });
    at += boxSize;
  }
  return boxes;
}

function cutShort(type: string, at: number): Mp4ReadError {
  return new Mp4ReadError(
    `its ${printable(type)} box at byte ${at} runs past the end: the file may be cut short`,
  );
}

/** A box type as text a person can read (a hostile one may hold anything). */
function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? `"${type}"` : 'unnamed';
}

/** Reads a box's payload (at most `max` bytes of it). */
async function payload(read: ReadBytesAt, box: Mp4Box, max: number): Promise<Uint8Array> {
  return read(box.start, Math.min(max, box.end - box.start));
}

/** Seconds of a movie or media header (version 0 or 1), or null when it gives none. */
async function movieDuration(read: ReadBytesAt, header: Mp4Box | undefined): Promise<number | null> {
  if (!header) return null;
  const bytes = await payload(read, header, 32);
  const v1 = bytes[0] === 1;
  const timescale = uint32be(bytes, v1 ? 20 : 12);
  const duration = v1 ? uint32be(bytes, 24) * 2 ** 32 + uint32be(bytes, 28) : uint32be(bytes, 16);
  if (bytes.length < (v1 ? 32 : 20) || timescale === 0) return null;
  // all ones: "unknown" in the format
  if ((!v1 && duration === 0xffffffff) || duration === 0) return null;
  return duration / timescale;
}

interface VideoTrack {
  width: number;
  height: number;
  durationSeconds: number | null;
  frames: number;
}

/** The track's facts when it is a video track, or null. */
async function videoTrack(read: ReadBytesAt, trak: Mp4Box): Promise<VideoTrack | null> {
  const parts = await childBoxes(read, trak.start, trak.end, 'trak');
  const mdia = parts.find((b) => b.type === 'mdia');
  const tkhd = parts.find((b) => b.type === 'tkhd');
  if (!mdia || !tkhd) return null;
  const media = await childBoxes(read, mdia.start, mdia.end, 'mdia');
  const hdlr = media.find((b) => b.type === 'hdlr');
  if (!hdlr || asciiAt(await payload(read, hdlr, 12), 8, 4) !== 'vide') return null;
  const { width, height } = await trackSize(read, tkhd);
  const durationSeconds = await movieDuration(
    read,
    media.find((b) => b.type === 'mdhd'),
  );
  const minf = media.find((b) => b.type === 'minf');
  const stbl = minf
    ? (await childBoxes(read, minf.start, minf.end, 'minf')).find((b) => b.type === 'stbl')
    : null;
  if (!stbl) throw new Mp4ReadError('its video track has no sample table (stbl box)');
  const frames = await frameCount(read, await childBoxes(read, stbl.start, stbl.end, 'stbl'));
  return { width, height, durationSeconds, frames };
}

/** Width and height of a track header: 16.16 fixed point at its end. */
async function trackSize(read: ReadBytesAt, tkhd: Mp4Box): Promise<{ width: number; height: number }> {
  const bytes = await payload(read, tkhd, 96);
  const at = bytes[0] === 1 ? 88 : 76;
  if (bytes.length < at + 8) throw new Mp4ReadError('its video track header (tkhd box) is too short');
  return {
    width: Math.round(uint32be(bytes, at) / 0x10000),
    height: Math.round(uint32be(bytes, at + 4) / 0x10000),
  };
}

/** Frames: stsz's sample count, else the sum of stts's counts. */
async function frameCount(read: ReadBytesAt, table: Mp4Box[]): Promise<number> {
  const stsz = table.find((b) => b.type === 'stsz');
  if (stsz) {
    const bytes = await payload(read, stsz, 12);
    if (bytes.length < 12) throw new Mp4ReadError('its sample sizes (stsz box) are cut short');
    return uint32be(bytes, 8);
  }
  const stts = table.find((b) => b.type === 'stts');
  if (!stts) throw new Mp4ReadError('its video track does not say how many frames it has');
  const head = await payload(read, stts, 8);
  const entries = uint32be(head, 4);
  if (head.length < 8 || entries > MAX_STTS_ENTRIES || 8 + entries * 8 > stts.end - stts.start) {
    throw new Mp4ReadError('its frame timing (stts box) is broken or too long');
  }
  const bytes = await read(stts.start + 8, entries * 8);
  let frames = 0;
  for (let i = 0; i < entries; i++) frames += uint32be(bytes, i * 8);
  return frames;
}
