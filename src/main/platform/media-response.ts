/**
 * The answer to one `studio-media:` request, with the Fetch API's Request and Response (so it
 * runs, and is tested, on plain Node): 404 for anything the backend does not resolve to a media
 * file under the library, 200 or 206 with the bytes asked for, 416 for a range past the end.
 * The scheme is CORS-enabled (wavesurfer fetches songs): every answer allows the app page's
 * origin only (`Access-Control-Allow-Origin: studio-app://app`, never `*`), so no other page a
 * session might show could read the library.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { mediaTypeOf, planMediaResponse } from '../../core/library/index.ts';
import type { StudioBackend } from '../backend/index.ts';
import { mediaRequestPath } from './media-scheme.ts';

/** The CORS headers of every answer: the app page's origin only. */
function corsHeaders(pageOrigin: string): Record<string, string> {
  return { 'Access-Control-Allow-Origin': pageOrigin, Vary: 'Origin' };
}

function plain(status: number, text: string, pageOrigin: string): Response {
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...corsHeaders(pageOrigin) },
  });
}

/** `pageOrigin`: the app page's origin (`appPageOrigin`), the one origin allowed to read the answer. */
export async function answerMediaRequest(
  backend: Pick<StudioBackend, 'resolveMediaPath'>,
  request: Request,
  pageOrigin: string,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return plain(405, 'method not allowed', pageOrigin);
  }
  const path = mediaRequestPath(request.url);
  const file = path === null ? null : backend.resolveMediaPath(path);
  const mime = file ? mediaTypeOf(file) : null;
  if (!file || !mime) return plain(404, 'not found', pageOrigin);
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch {
    return plain(404, 'not found', pageOrigin);
  }
  const plan = planMediaResponse(size, mime, request.headers.get('range'));
  const headers = { ...plan.headers, ...corsHeaders(pageOrigin) };
  if (request.method === 'HEAD' || !plan.range) return new Response(null, { status: plan.status, headers });
  const stream = createReadStream(file, { start: plan.range.start, end: plan.range.end });
  return new Response(Readable.toWeb(stream) as unknown as ConstructorParameters<typeof Response>[0], {
    status: plan.status,
    headers,
  });
}
