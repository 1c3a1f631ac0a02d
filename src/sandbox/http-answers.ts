/** Writing answers and reading bodies on node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, SandboxHttpError } from './error-body.ts';

/** Largest request body read (a Base64 image of LIMITS.imageMaxBytes is ~27 MB). */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
) {
  sendJsonText(res, status, JSON.stringify(errorBody(status, message)), headers);
}

/** Reads the whole body as UTF-8 text; a 413 when it is larger than `limit`. */
export function readBodyText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      total += chunk.length;
      if (total > limit) {
        refused = true;
        chunks.length = 0;
        reject(new SandboxHttpError(413, `body: larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) => {
      if (!refused) reject(err);
    });
  });
}

/** True for 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 spelling. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || a.startsWith('127.');
}

/** Parses a single `bytes=a-b` range; null when absent or not satisfiable in a simple way. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'invalid' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return 'invalid';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return { start, end };
}
