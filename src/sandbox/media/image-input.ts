/** Image inputs given as an http(s) URL, a data URI or raw Base64, decoded with sharp. */

import { ImageTooLargeError, openDecodable, readImageSize } from '../../image-codec/index.ts';
import { decodeMediaBase64, isDataUri } from './media-base64.ts';
import { MediaInputError } from './media-input-error.ts';

export interface DecodedImage {
  /** Raw RGBA pixels, row by row, 4 bytes per pixel. */
  data: Buffer;
  width: number;
  height: number;
  /** The source format as sharp names it: `png`, `jpeg`, `webp`, `gif`, ... */
  format: string;
}

export interface ImageDimensions {
  width: number;
  height: number;
  format: string;
}

export interface DecodeImageOptions {
  /** Each side must be strictly under this many pixels. Default 2048; `Infinity` turns the check off. */
  maxSide?: number;
}

export type FetchUrl = (url: string) => Promise<Buffer>;

export const DEFAULT_MAX_IMAGE_SIDE = 2048;

/** Turns the value into the bytes of a file: downloads a URL, decodes a data URI or raw Base64. */
export async function loadImageBytes(value: string, fetchUrl: FetchUrl): Promise<Buffer> {
  const text = value.trim();
  if (text === '') throw new MediaInputError('image value is empty');
  if (/^https?:\/\//i.test(text)) return download(text, fetchUrl);
  const bytes = decodeMediaBase64(text);
  if (bytes) return bytes;
  if (isDataUri(text)) throw new MediaInputError('data URI does not carry valid Base64 data');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    throw new MediaInputError(`URL scheme of "${text.slice(0, 40)}" is not supported (only http and https)`);
  }
  throw new MediaInputError('value is neither an http(s) URL, a data URI nor valid Base64');
}

async function download(url: string, fetchUrl: FetchUrl): Promise<Buffer> {
  try {
    return await fetchUrl(url);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MediaInputError(`could not download the image from ${url}: ${reason}`, { cause: error });
  }
}

/**
 * Width, height (EXIF orientation applied) and format from the file header only (no pixel
 * decoding). A size too large to decode is read and given back, not refused: callers check it.
 */
export async function imageDimensions(bytes: Buffer): Promise<ImageDimensions> {
  if (bytes.length === 0) throw new MediaInputError('image data is empty');
  // a load failure of sharp is the sandbox's, not the input's: it rejects as it is
  const size = await readImageSize(bytes);
  if (size === null) {
    throw new MediaInputError(
      `data (${bytes.length} bytes) is not a supported image (png, jpeg, webp, gif, ...)`,
    );
  }
  return { width: size.orientedWidth, height: size.orientedHeight, format: size.format };
}

/** Throws when a side is not strictly under `maxSide` pixels. */
export function checkImageSize(
  dims: { width: number; height: number },
  maxSide = DEFAULT_MAX_IMAGE_SIDE,
): void {
  if (dims.width >= maxSide || dims.height >= maxSide) {
    throw new MediaInputError(
      `image is ${dims.width} x ${dims.height} px; each side must be under ${maxSide} px`,
    );
  }
}

/**
 * Decodes the bytes of an image file into raw RGBA (EXIF orientation applied); a picture whose
 * header claims more than the decode limits (src/image-codec/decode-limits.ts) is refused
 * before any pixel is decoded.
 */
export async function decodeImageBytes(bytes: Buffer): Promise<DecodedImage> {
  const dims = await imageDimensions(bytes);
  let image: Awaited<ReturnType<typeof openDecodable>>;
  try {
    image = await openDecodable(bytes, dims);
  } catch (error) {
    if (error instanceof ImageTooLargeError) throw new MediaInputError(error.message, { cause: error });
    throw error;
  }
  try {
    const { data, info } = await image.autoOrient().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, format: dims.format };
  } catch {
    throw new MediaInputError(`${dims.format} image data is truncated or corrupt`);
  }
}

/**
 * Resolves an image value (http(s) URL, data URI or raw Base64), checks its size and decodes it.
 * Every problem with the value is a `MediaInputError` whose message says what is wrong.
 */
export async function decodeImageInput(
  value: string,
  fetchUrl: FetchUrl,
  options: DecodeImageOptions = {},
): Promise<DecodedImage> {
  const source = describeSource(value);
  const bytes = await loadImageBytes(value, fetchUrl);
  let dims: ImageDimensions;
  try {
    dims = await imageDimensions(bytes);
  } catch (error) {
    if (error instanceof MediaInputError)
      throw new MediaInputError(`${source} does not decode to an image`, { cause: error });
    throw error;
  }
  checkImageSize(dims, options.maxSide ?? DEFAULT_MAX_IMAGE_SIDE);
  return decodeImageBytes(bytes);
}

function describeSource(value: string): string {
  const text = value.trim();
  if (/^https?:\/\//i.test(text)) return 'the file downloaded from the URL';
  if (isDataUri(text)) return 'the data URI';
  return 'Base64';
}
