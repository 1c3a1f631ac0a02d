/**
 * A task's parameters in a PNG: an `iTXt` chunk (keyword `media-task-studio`, uncompressed UTF-8
 * text) written right after IHDR, where every reader of text chunks finds it. Read back chunk by
 * chunk (an 8-byte header each, the data only of a text chunk with our keyword), its CRC checked.
 */
import { crc32 } from 'node:zlib';
import { asciiAt, startsWithBytes, uint32be } from '../../shared/media/byte-fields.ts';
import { asciiBytes, type ByteEdit, type ReadBytesAt, uint32beBytes } from './file-edits.ts';
import { MAX_RECORD_BYTES, RECALL_KEY, RecallReadError } from './recall-record.ts';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Chunk headers looked at before giving up (a big PNG has thousands of IDAT chunks). */
const MAX_CHUNKS = 20_000;
/** Where the chunk after IHDR starts: signature, IHDR's header, its 13 bytes, its CRC. */
const AFTER_IHDR = 8 + 8 + 13 + 4;

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = Buffer.concat([asciiBytes(type), data]);
  return Buffer.concat([uint32beBytes(data.length), typed, uint32beBytes(crc32(typed))]);
}

/** The edit that puts `text` into a PNG, or null when the file does not start as a PNG should. */
export async function pngEdits(read: ReadBytesAt, text: Uint8Array): Promise<ByteEdit[] | null> {
  const head = await read(0, AFTER_IHDR);
  if (!startsWithBytes(head, SIGNATURE) || asciiAt(head, 12, 4) !== 'IHDR' || uint32be(head, 8) !== 13) {
    return null;
  }
  // keyword, NUL, not compressed, compression method, empty language tag and translated keyword
  const data = Buffer.concat([asciiBytes(RECALL_KEY), Uint8Array.of(0, 0, 0, 0, 0), text]);
  return [{ at: AFTER_IHDR, remove: 0, insert: chunk('iTXt', data) }];
}

/** The embedded text of a PNG, or null when it has none; throws RecallReadError for a broken one. */
export async function readPngText(read: ReadBytesAt, size: number): Promise<string | null> {
  let at = 8;
  for (let n = 0; n < MAX_CHUNKS && at + 12 <= size; n++) {
    const header = await read(at, 8);
    const length = uint32be(header, 0);
    const type = asciiAt(header, 4, 4);
    if (length > 0x7fffffff || at + 12 + length > size) {
      throw new RecallReadError(`its PNG chunk at byte ${at} runs past the end of the file`);
    }
    if (type === 'IEND') return null;
    if ((type === 'iTXt' || type === 'tEXt') && length > RECALL_KEY.length) {
      const keyword = await read(at + 8, RECALL_KEY.length + 1);
      if (asciiAt(keyword, 0, RECALL_KEY.length + 1) === `${RECALL_KEY}\0`) {
        return textOfChunk(read, at, type, length);
      }
    }
    at += 12 + length;
  }
  return null;
}

async function textOfChunk(read: ReadBytesAt, at: number, type: string, length: number): Promise<string> {
  if (length > MAX_RECORD_BYTES + 100) {
    throw new RecallReadError(
      `its parameters chunk is ${length} bytes, over the ${MAX_RECORD_BYTES} allowed`,
    );
  }
  const whole = await read(at + 4, 4 + length + 4);
  if (crc32(whole.subarray(0, 4 + length)) !== uint32be(whole, 4 + length)) {
    throw new RecallReadError('its parameters chunk is damaged (its checksum does not match)');
  }
  const data = whole.subarray(4 + RECALL_KEY.length + 1, 4 + length);
  if (type === 'tEXt') return Buffer.from(data).toString('latin1');
  if (data[0] !== 0)
    throw new RecallReadError('its parameters chunk is compressed, which this app never writes');
  // compression method, then the language tag and the translated keyword, each ending in NUL
  let start = 2;
  for (let nul = 0; nul < 2; nul++) {
    const end = data.indexOf(0, start);
    if (end < 0) throw new RecallReadError('its parameters chunk is cut short');
    start = end + 1;
  }
  return Buffer.from(data.subarray(start)).toString('utf8');
}
