/**
 * The largest picture any part of the app decodes: results' thumbnails and the sandbox's image
 * inputs in main (src/image-codec, through openDecodable), and the window's <img> of a library
 * file (mayShowPicture). A picture's size is read from its header and checked here BEFORE any
 * pixel is decoded: a file of a few kilobytes can claim 99,000,000 x 1 px, and decoding and
 * resizing it took 7.7 GB (security review, issue 17 item 3).
 *
 * The limits hold every real result: the largest the service makes is a 4x upscale of a
 * 2047 px picture, 8188 x 8188 (67.0 million pixels). 16384 is also WebP's own largest side.
 * Pure: no node, electron or react.
 */

/** Longest side, in pixels. */
export const MAX_DECODE_SIDE = 16_384;
/** Most pixels (width x height): 8192 x 8192, about 67.1 million. */
export const MAX_DECODE_PIXELS = 8_192 * 8_192;
/**
 * The largest file the window shows when its picture's size is unknown (no header size was
 * saved: a format main's header reader does not read, or a damaged header). A guess, not a
 * guarantee: a small file can still claim a large picture, so main records the size whenever it
 * can read it.
 */
export const MAX_UNSIZED_PICTURE_BYTES = 1024 * 1024;

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

/** A saved picture as the library records it: the size read from its header (if any) and its bytes. */
export interface SavedPictureFacts {
  width: number | null;
  height: number | null;
  /** The file's length in bytes. */
  size: number | null;
}

/**
 * May the window decode this saved picture (an <img> of the file itself): its recorded size is
 * within the decode limits, or, its size unknown, the file is at most MAX_UNSIZED_PICTURE_BYTES.
 */
export function mayShowPicture(picture: SavedPictureFacts): boolean {
  const { width, height, size } = picture;
  if (width !== null && height !== null) return decodeSizeProblem(width, height) === null;
  return size !== null && size <= MAX_UNSIZED_PICTURE_BYTES;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** What the picture is, for the placeholder: "99,000,000 × 1 px", "a 40.0 MB picture of unknown size". */
function pictureSizeWords({ width, height, size }: SavedPictureFacts): string {
  if (width !== null && height !== null)
    return `${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} px`;
  return size === null ? 'a picture of unknown size' : `a ${megabytes(size)} picture of unknown size`;
}

/**
 * The placeholder's words for a picture the window does not decode, or null when it may show it:
 * "Too large to show here: 99,000,000 × 1 px — open it with another program".
 */
export function pictureNotShownText(picture: SavedPictureFacts): string | null {
  if (mayShowPicture(picture)) return null;
  return `Too large to show here: ${pictureSizeWords(picture)} — open it with another program`;
}
