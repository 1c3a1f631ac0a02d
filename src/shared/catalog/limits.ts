/**
 * Limits the app and the sandbox enforce before anything is sent, and the URL rules of media
 * inputs. Where the spec says "not shown" the choice is documented in README.md ("Decisions on
 * the spec's gaps").
 */

/** Duration bounds are not published; third parties cap at 240 s. */
export const LIMITS = {
  audioMinSeconds: 1,
  audioMaxSeconds: 240,
  lyricsMaxChars: 5000,
  promptMaxChars: 2000,
  /** Face swap: each side must be under this many pixels (spec 8). Applied to every image input. */
  imageMaxSideExclusive: 2048,
  faceSwapUrlExtensions: ['.jpg', '.jpeg', '.png', '.webp'] as readonly string[],
  /** Largest local file accepted as an image input, in bytes. */
  imageMaxBytes: 20 * 1024 * 1024,
  /** Largest local file accepted as a reference audio input, in bytes. */
  audioMaxBytes: 200 * 1024 * 1024,
} as const;

/** True when a face-swap URL ends in an allowed extension (query and fragment ignored). */
export function hasAllowedImageUrlExtension(value: string): boolean {
  let path = value;
  try {
    path = new URL(value).pathname;
  } catch {
    // not an absolute URL: check the text itself
  }
  const lower = path.toLowerCase();
  return LIMITS.faceSwapUrlExtensions.some((ext) => lower.endsWith(ext));
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The real service's file upload endpoint (field notes): what it takes, and how long it keeps it. */
export const UPLOAD_LIMITS = {
  /** File name extensions taken. */
  extensions: ['jpg', 'jpeg', 'png', 'webp', 'mp4', 'wav', 'mp3'] as readonly string[],
  /** Longest file name taken, in characters. */
  nameMaxChars: 128,
  /** Largest file taken, in decoded bytes ("at most 10 MB", read as 10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** How long the service keeps an uploaded file. */
  keptMs: 24 * 60 * 60 * 1000,
} as const;
