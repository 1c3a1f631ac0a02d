/**
 * The tiny HTTP server the browser tests load the app from, on 127.0.0.1 with a free port:
 * - `/` and every other path: the built renderer's files (index.html for `/`);
 * - `/library/<path>`: a library file, found through `backend.resolveMediaPath` (which only
 *   answers for media files under the library folder), with Range support so audio and video
 *   can seek, and the content type the app's protocol handler gives it.
 * Serving both from one origin keeps the renderer's own Content-Security-Policy (`'self'`)
 * valid for media, as the custom protocol does in Electron.
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { mediaTypeOf, planMediaResponse } from '../../../src/core/library/index.ts';

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.flac': 'audio/flac',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Sends a file, whole or one byte range, planned by the backend's `planMediaResponse` so this
 * server answers exactly like the app's media protocol handler.
 */
function sendFile(req: IncomingMessage, res: ServerResponse, file: string, mime: string): void {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    sendStatus(res, 404);
    return;
  }
  const plan = planMediaResponse(size, mime, req.headers.range);
  res.writeHead(plan.status, plan.headers);
  if (req.method === 'HEAD' || plan.range === null) {
    res.end();
    return;
  }
  const stream = createReadStream(file, { start: plan.range.start, end: plan.range.end });
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

function sendStatus(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(String(status));
}

export interface StudioServer {
  readonly server: Server;
  readonly port: number;
  /** e.g. `http://127.0.0.1:41234/` */
  readonly url: string;
  /** The backend's `mediaBaseUrl`: `http://127.0.0.1:<port>/library/`. */
  readonly mediaBaseUrl: string;
  /** Set (or replace) what `/library/<path>` resolves through; until then it answers 404. */
  setMediaResolver(resolver: ((urlPath: string) => string | null) | null): void;
  /** Every `/library/...` request path seen, for tests that check what the UI loaded. */
  readonly mediaRequests: string[];
  close(): Promise<void>;
}

/** Starts the server for the renderer build in `rendererDir`. */
export async function startStudioServer(rendererDir: string): Promise<StudioServer> {
  const root = resolve(rendererDir);
  let mediaResolver: ((urlPath: string) => string | null) | null = null;
  const mediaRequests: string[] = [];

  const server = createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendStatus(res, 405);
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/library/')) {
      const urlPath = url.pathname.slice('/library/'.length);
      mediaRequests.push(urlPath);
      const file = mediaResolver?.(urlPath) ?? null;
      if (!file) sendStatus(res, 404);
      else sendFile(req, res, file, mediaTypeOf(file) ?? 'application/octet-stream');
      return;
    }
    if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    let relative: string;
    try {
      relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    } catch {
      sendStatus(res, 400);
      return;
    }
    const file = resolve(join(root, relative));
    if (file !== root && !file.startsWith(root + sep)) {
      sendStatus(res, 403);
      return;
    }
    sendFile(req, res, file, contentTypeOf(file));
  });
  // Keep-alive sockets would hold `close()` open; the browser reconnects as needed.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}/`,
    mediaBaseUrl: `http://127.0.0.1:${port}/library/`,
    setMediaResolver(resolver) {
      mediaResolver = resolver;
    },
    mediaRequests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
