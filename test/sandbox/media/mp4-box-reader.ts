/**
 * Test helper: reads an MP4 box tree, for what the app's own reader (src/core/inputs/mp4-facts.ts:
 * size, duration, frames, which the tests read through it) does not give: the sample tables
 * (stsz, stco, stsc, stss, stts), the media header, avc1 and avcC.
 */

export interface Mp4Box {
  type: string;
  /** Offset of the box header in the file. */
  start: number;
  size: number;
  /** Offset of the payload (after the 8-byte header). */
  payload: number;
  children: Mp4Box[];
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'dinf', 'stbl']);
/** Boxes whose children start after fixed fields: [type, bytes of fields before the children]. */
const WITH_FIELDS = new Map([
  ['stsd', 8],
  ['dref', 8],
  ['avc1', 78],
]);

export function readBoxes(buf: Buffer, start = 0, end = buf.length): Mp4Box[] {
  const boxes: Mp4Box[] = [];
  let offset = start;
  while (offset < end) {
    if (offset + 8 > end) throw new Error(`truncated box header at ${offset}`);
    const size = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    if (size < 8 || offset + size > end)
      throw new Error(`box ${type} at ${offset} has size ${size} beyond ${end}`);
    const payload = offset + 8;
    const skip = WITH_FIELDS.get(type);
    let children: Mp4Box[] = [];
    if (CONTAINERS.has(type)) children = readBoxes(buf, payload, offset + size);
    else if (skip !== undefined) children = readBoxes(buf, payload + skip, offset + size);
    boxes.push({ type, start: offset, size, payload, children });
    offset += size;
  }
  return boxes;
}

/** The first box at a path of types, e.g. `moov/trak/mdia/minf/stbl/stsz`. */
export function findBox(boxes: Mp4Box[], path: string): Mp4Box {
  const [head, ...rest] = path.split('/');
  const found = boxes.find((b) => b.type === head);
  if (!found) throw new Error(`no box ${head} (looking for ${path})`);
  return rest.length === 0 ? found : findBox(found.children, rest.join('/'));
}

/** The 32-bit big-endian words of a full box's payload after version/flags. */
export function fullBoxWords(buf: Buffer, box: Mp4Box, count: number): number[] {
  return Array.from({ length: count }, (_, i) => buf.readUInt32BE(box.payload + 4 + i * 4));
}
