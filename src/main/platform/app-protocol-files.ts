/**
 * `studio-app://app/<path>`: the app's own page and its assets, served from the built renderer
 * folder only (instead of `file://`, which would let an injected script read local files and
 * needs Electron's grantFileProtocolExtraPrivileges fuse). Pure: the file a request stands
 * for, and the answer, with the Fetch API's Request and Response so it runs on plain Node.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.ts';

export const APP_SCHEME = 'studio-app';
export const APP_HOST = 'app';
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** True when `url` is on the app's origin (`studio-app://app`), with no user, password or port. */
export function isAppOriginUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === `${APP_SCHEME}:` && u.hostname === APP_HOST && !u.username && !u.password && !u.port;
}

/**
 * The file under `rendererDir` a request URL stands for, or null: only our origin, a decodable
 * path without NUL, inside the folder after resolving `..` (symlinks are checked when read).
 */
export function appFileOf(rendererDir: string, url: string): string | null {
  if (!isAppOriginUrl(url)) return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const file = resolve(rendererDir, `.${path === '/' ? '/index.html' : path}`);
  const inside = relative(resolve(rendererDir), file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
  return file;
}

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The answer to one `studio-app:` request: the file's bytes with its type, or 404/405. */
export async function answerAppRequest(rendererDir: string, request: Request): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'method not allowed');
  const file = appFileOf(rendererDir, request.url);
  const type = file ? TYPES[extname(file).toLowerCase()] : undefined;
  if (!file || !type) return plain(404, 'not found');
  try {
    // a symlink inside the folder must not lead out of it
    const [real, root] = await Promise.all([realpath(file), realpath(rendererDir)]);
    if (!real.startsWith(root + sep)) return plain(404, 'not found');
    if (!(await stat(real)).isFile()) return plain(404, 'not found');
    const body = request.method === 'HEAD' ? null : await readFile(real);
    const headers: Record<string, string> = { 'Content-Type': type, 'Cache-Control': 'no-cache' };
    if (type.startsWith('text/html')) headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
    return new Response(body, { status: 200, headers });
  } catch {
    return plain(404, 'not found');
  }
}
