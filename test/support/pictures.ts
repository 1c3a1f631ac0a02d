/** Real picture files for tests, made with sharp, and ones carrying a task record as the app's exports do. */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { applyEdits, bytesSource } from '../../src/core/recall/file-edits.ts';
import { pngEdits } from '../../src/core/recall/png-params.ts';
import { RECALL_FORMAT } from '../../src/core/recall/recall-record.ts';

export interface Colour {
  r: number;
  g: number;
  b: number;
}

export type PictureFormat = 'png' | 'jpeg' | 'webp';

/** The format a picture file's name asks for: `.jpg`/`.jpeg` and `.webp`, else PNG. */
export function pictureFormat(name: string): PictureFormat {
  if (name.endsWith('.jpg') || name.endsWith('.jpeg')) return 'jpeg';
  return name.endsWith('.webp') ? 'webp' : 'png';
}

/** A solid-colour picture with a contrasting square in the middle, written to `path`. */
export async function writePicture(
  path: string,
  width: number,
  height: number,
  format: PictureFormat = 'png',
  colour: Colour = { r: 40, g: 120, b: 200 },
): Promise<string> {
  const square = await sharp({
    create: {
      width: Math.max(1, width >> 2),
      height: Math.max(1, height >> 2),
      channels: 3,
      background: { r: 250, g: 220, b: 30 },
    },
  })
    .png()
    .toBuffer();
  await sharp({ create: { width, height, channels: 3, background: colour } })
    .composite([{ input: square, gravity: 'centre' }])
    .toFormat(format)
    .toFile(path);
  return path;
}

/** A task record as an export embeds it: the format, and the request's model and task type beside it. */
export function recallRecord<R extends { model: string; task_type: string }>(
  request: R,
  fields: { id: string; title: string },
) {
  return { format: RECALL_FORMAT, ...fields, model: request.model, task_type: request.task_type, request };
}

/**
 * Writes the PNG `png` to `path` with `text` in the text chunk where the app embeds a task record
 * (a record's JSON, or a broken text); returns the path.
 */
export async function writePngWithRecord(path: string, png: Uint8Array, text: string): Promise<string> {
  const edits = await pngEdits(bytesSource(png), Buffer.from(text));
  writeFileSync(path, applyEdits(png, edits ?? []));
  return path;
}
