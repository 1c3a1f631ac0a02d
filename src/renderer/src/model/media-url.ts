/** URLs the renderer may load for library files, and names of local paths. Pure. */

/** The URL of a library-relative path: the bridge's media base plus the encoded path. */
export function mediaUrl(mediaBaseUrl: string, relativePath: string): string {
  return mediaBaseUrl + encodeURI(relativePath.replace(/\\/g, '/').replace(/^\/+/, ''));
}

/** The path under `libraryDir` of an absolute local path, or null when it lies elsewhere. */
export function libraryRelativePath(absolutePath: string, libraryDir: string): string | null {
  if (!libraryDir) return null;
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const path = norm(absolutePath);
  const root = norm(libraryDir);
  const caseless = /^[a-zA-Z]:\//.test(root);
  const starts = caseless
    ? path.toLowerCase().startsWith(`${root.toLowerCase()}/`)
    : path.startsWith(`${root}/`);
  if (!starts) return null;
  const rest = path.slice(root.length + 1);
  return rest.split('/').includes('..') ? null : rest;
}

/** The last part of a path or URL (`photo.png`). */
export function fileNameOf(pathOrUrl: string): string {
  let path = pathOrUrl;
  if (/^https?:/i.test(pathOrUrl)) {
    try {
      path = decodeURIComponent(new URL(pathOrUrl).pathname);
    } catch {
      path = pathOrUrl;
    }
  }
  const parts = path.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? path;
}

/** True for a local absolute path (POSIX, Windows drive or UNC) or a file: URL. */
export function looksLikeLocalPath(value: string): boolean {
  return (
    /^file:/i.test(value) ||
    /^[a-zA-Z]:[\\/]/.test(value) ||
    value.startsWith('\\\\') ||
    (value.startsWith('/') && value.length < 4096 && !/^\/9j\//.test(value))
  );
}

/**
 * Whether an <img> may show `url` under the app's Content-Security-Policy (img-src 'self'
 * studio-media: blob: data:): library media, dropped files, embedded data, and the page's own
 * origin. Other web addresses would be blocked, so the slot shows the address instead.
 */
export function previewAllowed(url: string, pageOrigin: string): boolean {
  if (/^(blob|data|studio-media):/i.test(url)) return true;
  try {
    return new URL(url).origin === pageOrigin;
  } catch {
    return false;
  }
}

/** The extension of a URL's path (`.gif`), lower-cased; '' when there is none. */
export function urlExtension(value: string): string {
  let path = value;
  try {
    path = new URL(value).pathname;
  } catch {
    // not an absolute URL: use the text
  }
  const name = fileNameOf(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}
