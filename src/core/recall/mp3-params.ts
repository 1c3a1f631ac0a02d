/**
 * A task's parameters in an MP3: an ID3v2 `TXXX` frame (description `media-task-studio`), put
 * first in the file's own ID3v2.3 or 2.4 tag, or in a new ID3v2.4 tag before the audio when it has
 * none. The JSON is written with every non-ASCII character escaped (`\u00e9`), so the same bytes
 * are valid in either version's Latin-1 and UTF-8 encodings. A tag this code cannot edit safely
 * (ID3v2.2, unsynchronised, with an extended header or a footer) is left alone: nothing is
 * embedded. Read back frame by frame (10-byte headers, then only our frame's data).
 */
import { asciiAt, uint32be } from '../../shared/media/byte-fields.ts';
import { asciiBytes, type ByteEdit, type ReadBytesAt, uint32beBytes } from './file-edits.ts';
import { MAX_RECORD_BYTES, RECALL_KEY, RecallReadError } from './recall-record.ts';

const MAX_FRAMES = 10_000;
const SYNCHSAFE_MAX = 0x0fffffff;

function synchsafeBytes(value: number): Uint8Array {
  return Uint8Array.of((value >> 21) & 0x7f, (value >> 14) & 0x7f, (value >> 7) & 0x7f, value & 0x7f);
}

/** A synchsafe integer, or -1 when a byte has its top bit set. */
function synchsafe(bytes: Uint8Array, at: number): number {
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const b = bytes[at + i] ?? 0;
    if (b & 0x80) return -1;
    value = value * 128 + b;
  }
  return value;
}

/** JSON text with every non-ASCII character escaped: the same bytes in Latin-1 and UTF-8. */
export function asciiJson(json: string): Uint8Array {
  return asciiBytes(
    json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

function txxxFrame(major: 3 | 4, text: Uint8Array): Uint8Array {
  // encoding (0: Latin-1 in 2.3, 3: UTF-8 in 2.4; the text is ASCII either way), description, NUL, value
  const data = Buffer.concat([
    Uint8Array.of(major === 4 ? 3 : 0),
    asciiBytes(RECALL_KEY),
    Uint8Array.of(0),
    text,
  ]);
  const size = major === 4 ? synchsafeBytes(data.length) : uint32beBytes(data.length);
  return Buffer.concat([asciiBytes('TXXX'), size, Uint8Array.of(0, 0), data]);
}

/** The edits that put `asciiText` (see asciiJson) into an MP3, or null when its tag cannot be edited safely. */
export async function mp3Edits(read: ReadBytesAt, asciiText: Uint8Array): Promise<ByteEdit[] | null> {
  const head = await read(0, 10);
  if (asciiAt(head, 0, 3) !== 'ID3') {
    const frame = txxxFrame(4, asciiText);
    if (frame.length > SYNCHSAFE_MAX) return null;
    const tag = Buffer.concat([
      asciiBytes('ID3'),
      Uint8Array.of(4, 0, 0),
      synchsafeBytes(frame.length),
      frame,
    ]);
    return [{ at: 0, remove: 0, insert: tag }];
  }
  const major = head[3];
  const flags = head[5] ?? 0xff;
  const size = synchsafe(head, 6);
  // unsynchronisation, an extended header or a footer: not edited
  if ((major !== 3 && major !== 4) || (flags & 0xd0) !== 0 || size < 0) return null;
  const frame = txxxFrame(major, asciiText);
  if (size + frame.length > SYNCHSAFE_MAX) return null;
  return [
    { at: 6, remove: 4, insert: synchsafeBytes(size + frame.length) },
    { at: 10, remove: 0, insert: frame },
  ];
}

/** The embedded text of an MP3, or null when it has none; throws RecallReadError for a broken one. */
export async function readMp3Text(read: ReadBytesAt, size: number): Promise<string | null> {
  const head = await read(0, 10);
  if (asciiAt(head, 0, 3) !== 'ID3') return null;
  const major = head[3];
  const flags = head[5] ?? 0;
  const tagSize = synchsafe(head, 6);
  if (major !== 3 && major !== 4) return null;
  if (tagSize < 0) throw new RecallReadError('its ID3 tag has a broken size');
  if (flags & 0x80) return null; // unsynchronised: never written by this app
  const end = Math.min(size, 10 + tagSize);
  let at = 10;
  if (flags & 0x40) {
    const ext = await read(10, 4);
    at += major === 4 ? synchsafe(ext, 0) : 4 + uint32be(ext, 0);
  }
  for (let n = 0; n < MAX_FRAMES && at + 10 <= end; n++) {
    const header = await read(at, 10);
    const id = asciiAt(header, 0, 4);
    if (!/^[A-Z0-9]{4}$/.test(id)) return null; // padding, or the end of the frames
    const frameSize = major === 4 ? synchsafe(header, 4) : uint32be(header, 4);
    if (frameSize < 0 || at + 10 + frameSize > end) {
      throw new RecallReadError(`its ID3 frame ${id} at byte ${at} runs past the end of its tag`);
    }
    if (id === 'TXXX' && frameSize > RECALL_KEY.length + 1) {
      const text = await ourText(read, at + 10, frameSize, header[9] ?? 0);
      if (text !== null) return text;
    }
    at += 10 + frameSize;
  }
  return null;
}

/** A TXXX frame's value when its description is ours. */
async function ourText(
  read: ReadBytesAt,
  start: number,
  size: number,
  frameFlags: number,
): Promise<string | null> {
  const lead = await read(start, RECALL_KEY.length + 2);
  const encoding = lead[0];
  if ((encoding !== 0 && encoding !== 3) || asciiAt(lead, 1, RECALL_KEY.length + 1) !== `${RECALL_KEY}\0`) {
    return null;
  }
  if (frameFlags !== 0)
    throw new RecallReadError('its parameters frame is compressed or encrypted, which this app never writes');
  if (size > MAX_RECORD_BYTES + 100) {
    throw new RecallReadError(`its parameters frame is ${size} bytes, over the ${MAX_RECORD_BYTES} allowed`);
  }
  const skip = RECALL_KEY.length + 2;
  const bytes = await read(start + skip, size - skip);
  const nul = bytes.indexOf(0);
  return Buffer.from(nul < 0 ? bytes : bytes.subarray(0, nul)).toString(encoding === 3 ? 'utf8' : 'latin1');
}
