/**
 * What main does with the decode limits (src/shared/media/picture-decoding.ts, which the window
 * reads too): a picture's size is read from its header and checked BEFORE any pixel is decoded
 * (issue 17 item 3); sharp's own `limitInputPixels` is set to the same number of pixels as a
 * second line (`DECODE_OPTIONS`).
 */

import { decodeSizeProblem, MAX_DECODE_PIXELS } from '../shared/media/picture-decoding.ts';

export { decodeSizeProblem, MAX_DECODE_PIXELS, MAX_DECODE_SIDE } from '../shared/media/picture-decoding.ts';

/** The option every sharp call that decodes a file or encoded bytes passes (openDecodable). */
export const DECODE_OPTIONS = { limitInputPixels: MAX_DECODE_PIXELS } as const;

/** A picture's header claims a size the app does not decode. The message names both sizes. */
export class ImageTooLargeError extends Error {
  override name = 'ImageTooLargeError';
  readonly width: number;
  readonly height: number;

  constructor(width: number, height: number) {
    super(decodeSizeProblem(width, height) ?? `the picture is ${width} x ${height} px`);
    this.width = width;
    this.height = height;
  }
}

/** Throws ImageTooLargeError unless a picture of this size may be decoded. */
export function assertDecodableSize(width: number, height: number): void {
  if (decodeSizeProblem(width, height) !== null) throw new ImageTooLargeError(width, height);
}
