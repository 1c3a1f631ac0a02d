/** Writing answers and reading bodies on node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBodyFor, SandboxHttpError } from './error-body.ts';
import type { AnswerProfile } from './options.ts';

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

/** Sends the error body of the answer profile (error-body.ts). */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  profile: AnswerProfile = 'spec',
) {
  sendJsonText(res, status, JSON.stringify(errorBodyFor(profile, status, message)), headers);
}

/** Sends a file's bytes (the whole file, or one `Range`), with no body for HEAD. */
export function sendBytes(
  req: IncomingMessage,
  res: ServerResponse,
  bytes: Buffer,
  contentType: string,
  name: string,
) {
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'accept-ranges': 'bytes',
    'content-disposition': `inline; filename="${name}"`,
    'cache-control': 'no-store',
  };
  const range = parseRange(req.headers.range, bytes.length);
  if (range === 'invalid') {
    res.writeHead(416, { ...headers, 'content-range': `bytes */${bytes.length}`, 'content-length': 0 });
    res.end();
    return;
  }
  const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${bytes.length}`;
  res.writeHead(range ? 206 : 200, { ...headers, 'content-length': part.length });
  res.end(req.method === 'HEAD' ? undefined : part);
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
