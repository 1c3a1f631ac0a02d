/**
 * Downloads a task's output into the library: streamed to a temporary file under
 * `<library>/.partial/`, checked (size cap, content sniffed from its first bytes), hashed, then
 * renamed into `<library>/<yyyy>/<mm>/<task id>/`. A URL the service no longer serves gives
 * `OutputExpiredError`, so the caller can keep the record and the URL.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, interceptors, request } from 'undici';
import type { OutputKind } from '../../shared/index.ts';
import { sniffFileType } from './file-type-sniffing.ts';

/** One agent for every output download: keep-alive, and up to 3 redirects (CDNs redirect). */
const downloadAgent = new Agent({ connections: 8 }).compose(interceptors.redirect({ maxRedirections: 3 }));

export class OutputExpiredError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`output expired: the service no longer serves this file (HTTP ${status})`);
    this.name = 'OutputExpiredError';
    this.status = status;
  }
}

export class OutputDownloadError extends Error {
  /** True when trying again later may succeed (network trouble, 5xx). */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = 'OutputDownloadError';
    this.retryable = retryable;
  }
}

export interface DownloadedOutput {
  /** Relative to the library folder, with forward slashes. */
  path: string;
  mime: string;
  size: number;
  sha256: string;
}

export interface DownloadOptions {
  libraryDir: string;
  taskId: string;
  /** When the task was created: chooses the `<yyyy>/<mm>` folder. */
  createdAt: string;
  index: number;
  kind: OutputKind;
  maxBytes: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

const SAFE_ID = /^[A-Za-z0-9-]{1,64}$/;

/** The folder of a task's files, refusing any id that could escape the library. */
export function taskFolder(libraryDir: string, taskId: string, createdAt: string): string {
  if (!SAFE_ID.test(taskId)) throw new Error(`unsafe task id for a folder name: ${JSON.stringify(taskId)}`);
  const d = new Date(createdAt);
  const year = Number.isNaN(d.getTime()) ? '0000' : String(d.getUTCFullYear()).padStart(4, '0');
  const month = Number.isNaN(d.getTime()) ? '00' : String(d.getUTCMonth() + 1).padStart(2, '0');
  const folder = resolve(libraryDir, year, month, taskId);
  const root = resolve(libraryDir);
  if (!folder.startsWith(root + sep)) throw new Error('task folder escapes the library');
  return folder;
}

function toLibraryPath(libraryDir: string, absolute: string): string {
  return relative(resolve(libraryDir), absolute).split(sep).join('/');
}

/** Accepts the sniffed type for the expected kind; `file` outputs accept anything. */
function contentMatches(kind: OutputKind, family: string | null): boolean {
  if (kind === 'file') return true;
  return family === kind;
}

export async function downloadOutput(url: string, options: DownloadOptions): Promise<DownloadedOutput> {
  const { libraryDir, maxBytes } = options;
  const partialDir = join(libraryDir, '.partial');
  await mkdir(partialDir, { recursive: true });
  const tempPath = join(partialDir, `${randomUUID()}.part`);

  let head = new Uint8Array(0);
  let size = 0;
  const hash = createHash('sha256');
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) {
        done(
          new OutputDownloadError(`output is larger than the ${Math.round(maxBytes / 1e6)} MB limit`, false),
        );
        return;
      }
      if (head.length < 64) head = Buffer.concat([head, chunk.subarray(0, 64 - head.length)]);
      hash.update(chunk);
      done(null, chunk);
    },
  });

  try {
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) {
        throw new OutputDownloadError('output data URI is not Base64', false);
      }
      const bytes = Buffer.from(url.slice(comma + 1), 'base64');
      await pipeline(Readable.from([bytes]), meter, createWriteStream(tempPath));
    } else {
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method: 'GET',
          signal: options.signal,
          headersTimeout: options.timeoutMs ?? 60_000,
          bodyTimeout: options.timeoutMs ?? 60_000,
          dispatcher: downloadAgent,
        });
      } catch (err) {
        throw new OutputDownloadError(`could not reach the output URL: ${(err as Error).message}`, true);
      }
      const status = response.statusCode;
      if (status === 404 || status === 410 || status === 403) {
        await response.body.dump();
        throw new OutputExpiredError(status);
      }
      if (status < 200 || status >= 300) {
        await response.body.dump();
        throw new OutputDownloadError(
          `output download answered HTTP ${status}`,
          status >= 500 || status === 429,
        );
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await response.body.dump();
        throw new OutputDownloadError(`output is ${declared} bytes; the limit is ${maxBytes}`, false);
      }
      try {
        await pipeline(response.body, meter, createWriteStream(tempPath));
      } catch (err) {
        if (err instanceof OutputDownloadError) throw err;
        throw new OutputDownloadError(`output download broke off: ${(err as Error).message}`, true);
      }
    }
    if (size === 0) throw new OutputDownloadError('output is empty', true);
    const sniffed = sniffFileType(head);
    if (!contentMatches(options.kind, sniffed?.family ?? null)) {
      throw new OutputDownloadError(
        `output should be ${options.kind} but its content is ${sniffed ? sniffed.mime : 'not a known media type'}`,
        false,
      );
    }
    const folder = taskFolder(libraryDir, options.taskId, options.createdAt);
    await mkdir(folder, { recursive: true });
    const ext = sniffed?.ext ?? 'bin';
    const finalPath = join(folder, `output-${options.index + 1}.${ext}`);
    await rename(tempPath, finalPath);
    return {
      path: toLibraryPath(libraryDir, finalPath),
      mime: sniffed?.mime ?? 'application/octet-stream',
      size,
      sha256: hash.digest('hex'),
    };
  } finally {
    await rm(tempPath, { force: true });
  }
}
