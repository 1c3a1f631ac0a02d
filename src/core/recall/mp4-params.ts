/**
 * A task's parameters in an MP4 (or M4A, MOV): an iTunes-style free-form item (`----`, mean
 * `com.media-task-studio`, name `params`, UTF-8 data) in a `meta` box with its `mdir` handler.
 * Nothing the player reads moves: when the movie box (moov) is the file's last box, the meta goes
 * into moov's `udta` (made when missing) and only the sizes of moov and udta change; when moov
 * comes before the media data (a "fast start" file, whose chunk offsets point past moov), the
 * meta is appended at the end of the file as a top-level box, which players skip. Read back with
 * the same bounded box walk as the video checks (mp4-facts.ts's childBoxes).
 */
import { asciiAt, uint32be } from '../../shared/media/byte-fields.ts';
import { childBoxes, type Mp4Box, Mp4ReadError } from '../inputs/mp4-facts.ts';
import { asciiBytes, type ByteEdit, type ReadBytesAt, uint32beBytes } from './file-edits.ts';
import { MAX_RECORD_BYTES, RecallReadError } from './recall-record.ts';

const MEAN = 'com.media-task-studio';
const NAME = 'params';

function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(payload);
  return Buffer.concat([uint32beBytes(8 + body.length), asciiBytes(type), body]);
}

const FULL = new Uint8Array(4); // version 0, flags 0

/** The `meta` box holding `text`: a full box with an `mdir` handler and one free-form item. */
function metaBox(text: Uint8Array): Uint8Array {
  const hdlr = box(
    'hdlr',
    FULL,
    new Uint8Array(4),
    asciiBytes('mdir'),
    asciiBytes('appl'),
    new Uint8Array(9),
  );
  const item = box(
    '----',
    box('mean', FULL, asciiBytes(MEAN)),
    box('name', FULL, asciiBytes(NAME)),
    box('data', uint32beBytes(1), new Uint8Array(4), text), // type 1: UTF-8, locale 0
  );
  return box('meta', FULL, hdlr, box('ilst', item));
}

/** A size field of a box grown by `grow` bytes (a box sized "to the end" keeps its 0). */
async function grownSize(read: ReadBytesAt, b: Mp4Box, grow: number): Promise<ByteEdit[] | null> {
  const header = await read(b.at, 16);
  const small = uint32be(header, 0);
  if (small === 0) return [];
  if (small === 1) {
    const big = uint32be(header, 8) * 2 ** 32 + uint32be(header, 12) + grow;
    return [
      {
        at: b.at + 8,
        remove: 8,
        insert: Buffer.concat([uint32beBytes(Math.floor(big / 2 ** 32)), uint32beBytes(big >>> 0)]),
      },
    ];
  }
  return small + grow > 0xffffffff ? null : [{ at: b.at, remove: 4, insert: uint32beBytes(small + grow) }];
}

/** The edits that put `text` into an MP4, or null when its boxes cannot be read. */
export async function mp4Edits(
  read: ReadBytesAt,
  size: number,
  text: Uint8Array,
): Promise<ByteEdit[] | null> {
  let top: Mp4Box[];
  try {
    top = await childBoxes(read, 0, size, 'the file');
  } catch (err) {
    if (err instanceof Mp4ReadError) return null;
    throw err;
  }
  const meta = metaBox(text);
  const moov = top.find((b) => b.type === 'moov');
  const last = top.at(-1);
  if (moov && last === moov && moov.end === size) {
    const udta = (await childBoxes(read, moov.start, moov.end, 'moov')).find((b) => b.type === 'udta');
    const insert = udta ? meta : box('udta', meta);
    const sizes = [
      await grownSize(read, moov, insert.length),
      udta ? await grownSize(read, udta, insert.length) : [],
    ];
    if (sizes.some((s) => s === null)) return null;
    return [...sizes.flatMap((s) => s ?? []), { at: udta ? udta.end : moov.end, remove: 0, insert }];
  }
  // a fast-start file: nothing inside may move; a last box sized "to the end" gets its real size
  if (!last || last.end !== size) return null;
  const header = await read(last.at, 4);
  if (uint32be(header, 0) === 0) {
    if (size - last.at > 0xffffffff) return null;
    return [
      { at: last.at, remove: 4, insert: uint32beBytes(size - last.at) },
      { at: size, remove: 0, insert: meta },
    ];
  }
  return [{ at: size, remove: 0, insert: meta }];
}

/** The children of a `meta` box: after its version and flags (ISO), or at once (QuickTime). */
async function metaChildren(read: ReadBytesAt, meta: Mp4Box): Promise<Mp4Box[]> {
  const head = await read(meta.start, 8);
  const start = asciiAt(head, 4, 4) === 'hdlr' ? meta.start : meta.start + 4;
  return childBoxes(read, start, meta.end, 'meta');
}

/** Our item's text in a `meta` box, or null. */
async function textInMeta(read: ReadBytesAt, meta: Mp4Box): Promise<string | null> {
  const ilst = (await metaChildren(read, meta)).find((b) => b.type === 'ilst');
  if (!ilst) return null;
  for (const item of await childBoxes(read, ilst.start, ilst.end, 'ilst')) {
    if (item.type !== '----') continue;
    const parts = await childBoxes(read, item.start, item.end, '----');
    const small = async (type: string) => {
      const b = parts.find((p) => p.type === type);
      return b && b.end - b.start <= 104
        ? asciiAt(await read(b.start + 4, b.end - b.start - 4), 0, b.end - b.start - 4)
        : null;
    };
    if ((await small('mean')) !== MEAN || (await small('name')) !== NAME) continue;
    const data = parts.find((p) => p.type === 'data');
    if (!data || data.end - data.start < 8) throw new RecallReadError('its parameters item has no data');
    const length = data.end - data.start - 8;
    if (length > MAX_RECORD_BYTES) {
      throw new RecallReadError(
        `its parameters item is ${length} bytes, over the ${MAX_RECORD_BYTES} allowed`,
      );
    }
    return Buffer.from(await read(data.start + 8, length)).toString('utf8');
  }
  return null;
}

/** The embedded text of an MP4, or null when it has none; throws RecallReadError for a broken one. */
export async function readMp4Text(read: ReadBytesAt, size: number): Promise<string | null> {
  try {
    const top = await childBoxes(read, 0, size, 'the file');
    const metas = top.filter((b) => b.type === 'meta');
    const moov = top.find((b) => b.type === 'moov');
    if (moov) {
      for (const udta of (await childBoxes(read, moov.start, moov.end, 'moov')).filter(
        (b) => b.type === 'udta',
      )) {
        metas.unshift(
          ...(await childBoxes(read, udta.start, udta.end, 'udta')).filter((b) => b.type === 'meta'),
        );
      }
    }
    for (const meta of metas) {
      const text = await textInMeta(read, meta);
      if (text !== null) return text;
    }
    return null;
  } catch (err) {
    if (err instanceof Mp4ReadError) throw new RecallReadError(err.message);
    throw err;
  }
}
