/**
 * The largest picture any part of the app decodes (thumbnails of results, the sandbox's image
 * inputs). A picture's size is read from its header and checked here BEFORE any pixel is
 * decoded: a file of a few kilobytes can claim 99,000,000 x 1 px, and decoding and resizing it
 * took 7.7 GB (security review, issue 17 item 3). sharp's own `limitInputPixels` is set to the
 * same number of pixels as a second line (`DECODE_OPTIONS`).
 *
 * The limits hold every real result: the largest the service makes is a 4x upscale of a
 * 2047 px picture, 8188 x 8188 (67.0 million pixels). 16384 is also WebP's own largest side.
 */

/** Longest side, in pixels. */
export const MAX_DECODE_SIDE = 16_384;
/** Most pixels (width x height): 8192 x 8192, about 67.1 million. */
export const MAX_DECODE_PIXELS = 8_192 * 8_192;

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

/** "67.1 million pixels" */
function pixelWords(pixels: number): string {
  return `${(pixels / 1e6).toFixed(1)} million pixels`;
}

/** What is wrong with decoding a picture of this size, or null when it may be decoded. */
export function decodeSizeProblem(width: number, height: number): string | null {
  const sane = Number.isSafeInteger(width) && Number.isSafeInteger(height) && width > 0 && height > 0;
  if (sane && width <= MAX_DECODE_SIDE && height <= MAX_DECODE_SIDE && width * height <= MAX_DECODE_PIXELS) {
    return null;
  }
  return `the picture is ${width} x ${height} px; the app decodes pictures of at most ${MAX_DECODE_SIDE} px a side and ${pixelWords(MAX_DECODE_PIXELS)}`;
}

/** Throws ImageTooLargeError unless a picture of this size may be decoded. */
export function assertDecodableSize(width: number, height: number): void {
  if (decodeSizeProblem(width, height) !== null) throw new ImageTooLargeError(width, height);
}
