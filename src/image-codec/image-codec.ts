/**
 * The one place that loads sharp, the image library, and only when image work is asked for.
 *
 * sharp is imported lazily (a dynamic `import('sharp')`), never at the top of a module: if its
 * binary cannot load (a package built without it, a platform it does not support), the app still
 * starts; thumbnails are skipped and demo-mode image composition fails with a clear message.
 *
 * Which binary sharp loads: on plain Node (tests, the CLI) the native `@img/sharp-<platform>`
 * package npm installed for this machine; in the packaged app only the WebAssembly build,
 * `@img/sharp-wasm32`, is packaged (electron-builder.yml excludes the native packages), and
 * sharp's loader falls back to it when no native binary is found.
 */
import type SharpModule from 'sharp';
import type { Metadata, Sharp as SharpImage, SharpOptions } from 'sharp';
import { assertDecodableSize, DECODE_OPTIONS } from './decode-limits.ts';

/** sharp's default export: the function that opens an image. */
export type Sharp = typeof SharpModule;

/** sharp could not be loaded: image work is unavailable in this process. */
export class ImageCodecUnavailableError extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(`image processing is unavailable: the image library (sharp) could not load: ${reason}`, options);
    this.name = 'ImageCodecUnavailableError';
  }
}

let loading: Promise<Sharp> | undefined;

/** The first line of a load error's message (sharp's own message lists possible solutions). */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

/** Imports sharp once per process; a failure rejects with `ImageCodecUnavailableError`. */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then(
    (module) => module.default,
    (error: unknown) => {
      throw new ImageCodecUnavailableError(firstLine(error), { cause: error });
    },
  );
  return loading;
}

/** Which sharp binary this process loaded: `wasm32` or the native platform (e.g. `linux-x64`). */
export async function imageCodecBuild(): Promise<string> {
  const sharp = await loadSharp();
  return 'emscripten' in sharp.versions ? 'wasm32' : `${process.platform}-${process.arch}`;
}

/** A picture's size and format as its header gives them. */
export interface ImageSize {
  width: number;
  height: number;
  /** As sharp names it: `png`, `jpeg`, `webp`, `gif`, `heif`, ... */
  format: string;
  /** Width and height once EXIF orientation is applied (swapped for a quarter turn). */
  orientedWidth: number;
  orientedHeight: number;
}

/**
 * Reads a picture's size from its header with sharp, decoding no pixel; null when sharp cannot
 * read a header there (not a picture, or a broken one). The pixel limit is off for this read
 * only, so that a huge size is read and named rather than refused in sharp's words.
 */
export async function readImageSize(input: string | Buffer): Promise<ImageSize | null> {
  const sharp = await loadSharp(); // a load failure rejects: it is the codec's, not the picture's
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return null;
  }
  const { width, height, format } = meta;
  if (!format || !width || !height) return null;
  return {
    width,
    height,
    format,
    orientedWidth: meta.autoOrient?.width ?? width,
    orientedHeight: meta.autoOrient?.height ?? height,
  };
}

/**
 * sharp on a picture whose header size (`size`, read before) is within the decode limits, with
 * sharp's own pixel limit set as well; throws ImageTooLargeError, decoding nothing, otherwise.
 */
export async function openDecodable(
  input: string | Buffer,
  size: { width: number; height: number },
  options: SharpOptions = {},
): Promise<SharpImage> {
  assertDecodableSize(size.width, size.height);
  const sharp = await loadSharp();
  return sharp(input, { ...options, ...DECODE_OPTIONS });
}
