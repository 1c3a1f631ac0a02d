/**
 * A task's parameters in a WAV file: a `LIST`/`INFO` chunk appended after the file's own chunks,
 * its `ISFT` naming the app and its `ICMT` comment holding `media-task-studio ` and the JSON.
 * Nothing before it moves; only the RIFF size grows. Read back chunk by chunk (8-byte headers,
 * then only an INFO list's comment that starts with our prefix).
 */
import { asciiAt, uint32le } from '../../shared/media/byte-fields.ts';
import { asciiBytes, type ByteEdit, type ReadBytesAt, uint32leBytes } from './file-edits.ts';
import { MAX_RECORD_BYTES, RECALL_KEY, RecallReadError } from './recall-record.ts';

const PREFIX = `${RECALL_KEY} `;
const MAX_CHUNKS = 10_000;

/** A RIFF chunk: its id, size and data, padded to an even length. */
function riffChunk(id: string, data: Uint8Array): Uint8Array {
  const pad = data.length % 2 === 1 ? Uint8Array.of(0) : new Uint8Array(0);
  return Buffer.concat([asciiBytes(id), uint32leBytes(data.length), data, pad]);
}

/** The edits that put `text` into a WAV, or null when its RIFF header does not fit the file. */
export async function wavEdits(
  read: ReadBytesAt,
  size: number,
  text: Uint8Array,
  appVersion: string,
): Promise<ByteEdit[] | null> {
  const head = await read(0, 12);
  if (asciiAt(head, 0, 4) !== 'RIFF' || asciiAt(head, 8, 4) !== 'WAVE') return null;
  const riffEnd = 8 + uint32le(head, 4);
  if (riffEnd > size || riffEnd < 12) return null;
  const info = Buffer.concat([
    asciiBytes('INFO'),
    riffChunk('ISFT', Buffer.from(`Media Task Studio ${appVersion}\0`, 'utf8')),
    riffChunk('ICMT', Buffer.concat([asciiBytes(PREFIX), text, Uint8Array.of(0)])),
  ]);
  // the last chunk's pad byte, when the file left it out
  const pad = riffEnd % 2 === 1 ? Uint8Array.of(0) : new Uint8Array(0);
  const list = Buffer.concat([pad, riffChunk('LIST', info)]);
  const riffSize = riffEnd - 8 + list.length;
  if (riffSize > 0xffffffff) return null;
  return [
    { at: 4, remove: 4, insert: uint32leBytes(riffSize) },
    { at: riffEnd, remove: 0, insert: list },
  ];
}

interface Chunk {
  id: string;
  start: number;
  size: number;
}

async function* chunksOf(
  read: ReadBytesAt,
  start: number,
  end: number,
  where: string,
): AsyncGenerator<Chunk> {
  let at = start;
  for (let n = 0; n < MAX_CHUNKS && at + 8 <= end; n++) {
    const header = await read(at, 8);
    const size = uint32le(header, 4);
    if (at + 8 + size > end) throw new RecallReadError(`its ${where} chunk at byte ${at} runs past its end`);
    yield { id: asciiAt(header, 0, 4), start: at + 8, size };
    at += 8 + size + (size % 2);
  }
}

/** The embedded text of a WAV, or null when it has none; throws RecallReadError for a broken one. */
export async function readWavText(read: ReadBytesAt, size: number): Promise<string | null> {
  const head = await read(0, 12);
  const end = Math.min(size, 8 + uint32le(head, 4));
  for await (const list of chunksOf(read, 12, end, 'RIFF')) {
    if (list.id !== 'LIST' || list.size < 12) continue;
    if (asciiAt(await read(list.start, 4), 0, 4) !== 'INFO') continue;
    for await (const item of chunksOf(read, list.start + 4, list.start + list.size, 'INFO')) {
      if (item.id !== 'ICMT' || item.size <= PREFIX.length) continue;
      if (asciiAt(await read(item.start, PREFIX.length), 0, PREFIX.length) !== PREFIX) continue;
      if (item.size > MAX_RECORD_BYTES + PREFIX.length + 1) {
        throw new RecallReadError(
          `its parameters comment is ${item.size} bytes, over the ${MAX_RECORD_BYTES} allowed`,
        );
      }
      const bytes = await read(item.start + PREFIX.length, item.size - PREFIX.length);
      const nul = bytes.indexOf(0);
      return Buffer.from(nul < 0 ? bytes : bytes.subarray(0, nul)).toString('utf8');
    }
  }
  return null;
}
