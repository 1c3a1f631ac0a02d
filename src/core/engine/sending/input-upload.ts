/**
 * Local file inputs put on the service's upload endpoint before a create, so the create carries
 * a URL instead of megabytes of Base64 (and the service's answers do not echo them back on every
 * poll). A file that does not fit the endpoint (size, type), or whose upload fails, is sent
 * inline as before: an upload is an optimisation, never a reason for a task to fail.
 *
 * An upload is reused for the same bytes (by SHA-256) while the service still keeps it: the
 * URL and its end of life are kept in the library's settings table under `upload:<origin>:<hash>`.
 * A file's stored path is resolved inside the library first (library-paths.ts): a path the
 * database records outside it throws LibraryPathError and is never read.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { z } from 'zod';
import { type TaskInput, UPLOAD_LIMITS } from '../../../shared/index.ts';
import { libraryFileOf } from '../../library/index.ts';
import { PlanRefusedError, type ServiceClient } from '../../service/index.ts';
import type { LibraryStore } from '../../store/index.ts';

/** An upload is reused only while at least this long is left of its life (a task may wait). */
const REUSE_MARGIN_MS = 4 * 60 * 60 * 1000;

const CachedUploadSchema = z.object({ url: z.string().min(1), expiresAt: z.number() });

export interface UploadedInputs {
  /** Field -> URL the service can fetch the file from. */
  urls: Record<string, string>;
  /** One line per file input: uploaded, reused, or why it goes inline. */
  notes: string[];
  /** The service refused uploads for this plan: do not try again with this client. */
  refused: boolean;
}

function extensionOf(path: string): string {
  return extname(path).slice(1).toLowerCase();
}

function cacheKey(uploadOrigin: string, sha256: string): string {
  return `upload:${uploadOrigin}:${sha256}`;
}

/** Why a file input cannot go through the upload endpoint, or null when it can. */
function unfitReason(input: TaskInput, size: number): string | null {
  const ext = extensionOf(input.value);
  if (!UPLOAD_LIMITS.extensions.includes(ext)) return `the upload endpoint does not take .${ext} files`;
  if (size > UPLOAD_LIMITS.maxBytes) return 'it is larger than the upload limit of 10 MB';
  if (!input.sha256) return 'its checksum is unknown';
  return null;
}

export async function uploadFileInputs(options: {
  client: ServiceClient;
  uploadOrigin: string;
  inputs: readonly TaskInput[];
  libraryDir: string;
  store: LibraryStore;
  now?: () => number;
}): Promise<UploadedInputs> {
  const { client, uploadOrigin, store } = options;
  const now = options.now ?? Date.now;
  const result: UploadedInputs = { urls: {}, notes: [], refused: false };
  for (const input of options.inputs) {
    if (input.source !== 'file') continue;
    const file = libraryFileOf(options.libraryDir, input.value, `input ${JSON.stringify(input.field)}`);
    const size = (await stat(file)).size;
    const unfit = unfitReason(input, size);
    if (unfit || !input.sha256) {
      result.notes.push(`${input.field} sent inline: ${unfit}`);
      continue;
    }
    const key = cacheKey(uploadOrigin, input.sha256);
    const cached = store.getSetting(key, CachedUploadSchema);
    // an address kept by an earlier version may be one the upload rule now refuses: upload again
    if (
      cached &&
      cached.expiresAt - now() > REUSE_MARGIN_MS &&
      client.uploadedUrlProblem(cached.url) === null
    ) {
      result.urls[input.field] = cached.url;
      result.notes.push(`${input.field} reuses an earlier upload`);
      continue;
    }
    try {
      const startedAt = now();
      const base64 = (await readFile(file)).toString('base64');
      const url = await client.uploadFile({ fileName: `${input.field}.${extensionOf(file)}`, base64 });
      store.setSetting(key, { url, expiresAt: startedAt + UPLOAD_LIMITS.keptMs });
      result.urls[input.field] = url;
      result.notes.push(`${input.field} uploaded`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      result.notes.push(`${input.field} sent inline: the upload failed (${why})`);
      if (err instanceof PlanRefusedError) {
        result.refused = true;
        break;
      }
    }
  }
  return result;
}
