/**
 * A task's parameters inside its result files (issue 22, item 2): which kinds carry them and
 * where (a PNG's iTXt chunk, a WAV's INFO comment, an MP3's ID3 TXXX frame, an MP4's free-form
 * item, a GLB's `asset.extras`), written into an export's copy and read back from any file. The
 * kind is decided by the bytes through the table of media kinds (`sniffFileType`), never the name.
 * Other formats (JPEG, WebP, FLAC, WebM, …) are exported as they are and recalled by checksum.
 */
import type { FileHandle } from 'node:fs/promises';
import { type SniffedType, sniffFileType } from '../../shared/media/index.ts';
import { type ByteEdit, copyWithEdits, fileSource, type ReadBytesAt } from './file-edits.ts';
import { glbEdits, readGlbText } from './glb-params.ts';
import { asciiJson, mp3Edits, readMp3Text } from './mp3-params.ts';
import { mp4Edits, readMp4Text } from './mp4-params.ts';
import { pngEdits, readPngText } from './png-params.ts';
import { parseRecallRecord, RecallReadError, type RecallRecord, recordBytes } from './recall-record.ts';
import { readWavText, wavEdits } from './wav-params.ts';

/** Enough of a file's start for every recogniser (media-recognition.ts). */
const HEAD_BYTES = 4096;

type Carrier = 'png' | 'wav' | 'mp3' | 'mp4' | 'glb';

const CARRIERS: Record<string, Carrier> = {
  png: 'png',
  wav: 'wav',
  mp3: 'mp3',
  mp4: 'mp4',
  m4a: 'mp4',
  mov: 'mp4',
  glb: 'glb',
};

/** Where a kind keeps the parameters, in words (for messages). */
const PLACES: Record<Carrier, string> = {
  png: 'PNG text chunk',
  wav: 'WAV comment',
  mp3: 'ID3 tag',
  mp4: 'MP4 metadata',
  glb: 'glTF extras',
};

/** The type of a source by its first bytes, or null when no media kind recognises it. */
export async function sniffSource(read: ReadBytesAt): Promise<SniffedType | null> {
  return sniffFileType(await read(0, HEAD_BYTES));
}

/** Whether files of this type carry embedded parameters. */
export function carriesParams(type: SniffedType | null): boolean {
  return type !== null && CARRIERS[type.ext] !== undefined;
}

/** The edits that embed the record `json` in a source of this type; null when the kind or file does not take them. */
export async function embeddingEdits(
  read: ReadBytesAt,
  size: number,
  type: SniffedType | null,
  json: string,
  appVersion: string,
): Promise<ByteEdit[] | null> {
  const carrier = type ? CARRIERS[type.ext] : undefined;
  if (!carrier) return null;
  let text: Uint8Array;
  try {
    text = recordBytes(json);
  } catch {
    return null; // too large to embed: the copy goes as it is, the task.json beside it has it all
  }
  switch (carrier) {
    case 'png':
      return pngEdits(read, text);
    case 'wav':
      return wavEdits(read, size, text, appVersion);
    case 'mp3':
      return mp3Edits(read, asciiJson(json));
    case 'mp4':
      return mp4Edits(read, size, text);
    case 'glb':
      return glbEdits(read, size, json);
  }
}

/**
 * Copies `size` bytes of `source` into `target` with the record embedded when the kind takes it;
 * returns whether it was embedded.
 */
export async function copyWithRecord(
  source: FileHandle,
  size: number,
  target: FileHandle,
  json: string,
  appVersion: string,
): Promise<boolean> {
  const read = fileSource(source);
  const edits = await embeddingEdits(read, size, await sniffSource(read), json, appVersion);
  await copyWithEdits(source, size, target, edits ?? []);
  return edits !== null;
}

/** What a file says of its parameters: the record, none, or why it cannot be read. */
export type EmbeddedReading =
  | { found: RecallRecord; place: string }
  | { found: null; problem: string | null; type: SniffedType | null };

/**
 * Most reads of one file while its parameters are looked for. Each level's walk is bounded, but
 * levels multiply: an MP4 of 5 MB with 511 `udta` boxes of 511 `meta` boxes each took 780,000
 * reads (20 s; 80 s for 31 MB). A file the app wrote needs a handful, a PNG of 20,000 chunks
 * (its most) 20,000.
 */
export const MAX_RECALL_READS = 25_000;

/** `read`, refusing (in words) once it has been called MAX_RECALL_READS times. */
function budgeted(read: ReadBytesAt): ReadBytesAt {
  let reads = 0;
  return (position, length) => {
    reads += 1;
    if (reads > MAX_RECALL_READS) {
      throw new RecallReadError(
        `it has more parts than the app looks through for its parameters (${MAX_RECALL_READS.toLocaleString('en-US')} reads)`,
      );
    }
    return read(position, length);
  };
}

/** Reads the parameters embedded in a source (bounded reads; a hostile file gets a problem in words, never a crash). */
export async function readEmbeddedParams(read: ReadBytesAt, size: number): Promise<EmbeddedReading> {
  const type = await sniffSource(read);
  const carrier = type ? CARRIERS[type.ext] : undefined;
  if (!carrier) return { found: null, problem: null, type };
  const place = PLACES[carrier];
  try {
    const text = await textOf(carrier, budgeted(read), size);
    if (text === null) return { found: null, problem: null, type };
    return { found: parseRecallRecord(text, place), place };
  } catch (err) {
    if (err instanceof RecallReadError) return { found: null, problem: err.message, type };
    throw err;
  }
}

function textOf(carrier: Carrier, read: ReadBytesAt, size: number): Promise<string | null> {
  switch (carrier) {
    case 'png':
      return readPngText(read, size);
    case 'wav':
      return readWavText(read, size);
    case 'mp3':
      return readMp3Text(read, size);
    case 'mp4':
      return readMp4Text(read, size);
    case 'glb':
      return readGlbText(read, size);
  }
}
