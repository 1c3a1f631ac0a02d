/**
 * How to answer a request for a media file: the whole file, one byte range (206, for seeking in
 * audio and video), or 416 when the range cannot be satisfied. Pure, so the Electron protocol
 * handler and the harness's HTTP server answer alike and the logic is tested on Node.
 */

export type ByteRange = { start: number; end: number };

/**
 * Parses a `Range` header against a file size. Returns null when the header is absent or not a
 * single bytes range we understand (the whole file is then sent, as RFC 9110 allows), or
 * 'unsatisfiable'.
 */
export function parseRangeHeader(
  header: string | null | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return null;
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return null;
  if (start >= size) return 'unsatisfiable';
  let end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(end)) return null;
  if (end < start) return null;
  end = Math.min(end, size - 1);
  return { start, end };
}

export interface MediaResponsePlan {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  /** The bytes to send (inclusive), or null for none. */
  range: ByteRange | null;
}

export function planMediaResponse(
  size: number,
  mime: string,
  rangeHeader: string | null | undefined,
): MediaResponsePlan {
  const common = {
    'Accept-Ranges': 'bytes',
    'Content-Type': mime,
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
  };
  const range = parseRangeHeader(rangeHeader, size);
  if (range === 'unsatisfiable') {
    return {
      status: 416,
      headers: { ...common, 'Content-Range': `bytes */${size}`, 'Content-Length': '0' },
      range: null,
    };
  }
  if (range === null) {
    return {
      status: 200,
      headers: { ...common, 'Content-Length': String(size) },
      range: size > 0 ? { start: 0, end: size - 1 } : null,
    };
  }
  return {
    status: 206,
    headers: {
      ...common,
      'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
      'Content-Length': String(range.end - range.start + 1),
    },
    range,
  };
}
