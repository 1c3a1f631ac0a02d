/**
 * Downloads a task's output into the library: streamed to a temporary file under
 * `<library>/.partial/`, checked (size caps: of the file, and of all the task's results together;
 * content sniffed from its first bytes), hashed, then
 * renamed into `<library>/<yyyy>/<mm>/<task id>/`. A URL the service no longer serves gives
 * `OutputExpiredError`, so the caller can keep the record and the URL. Where connections may go
 * is the agent's business (guarded-agent.ts); redirects are followed by output-fetch.ts; each
 * download has a total time limit and an idle limit.
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Dispatcher } from 'undici';
import { MEDIA_KIND_TABLE, type OutputKind } from '../../shared/index.ts';
import { sniffFileType } from '../inputs/index.ts';
import { createPartialFile, ensureFolderBelow, taskFolder } from '../library/index.ts';
import {
  type DownloadTimes,
  downloadFailureOf,
  fileTooLarge,
  finalFailure,
  OutputDownloadError,
  OutputExpiredError,
  retryableFailure,
  taskTooLarge,
} from './download-errors.ts';
import { createDownloadAgent } from './guarded-agent.ts';
import { fetchOutput } from './output-fetch.ts';

export { OutputDownloadError, OutputExpiredError };

/** Limits of one download when the caller gives none. */
export const DEFAULT_DOWNLOAD_TIMES: DownloadTimes = { totalMs: 30 * 60_000, idleMs: 60_000 };

/** The agent used when the caller passes none: public addresses only. */
let publicOnlyAgent: Dispatcher | null = null;
function defaultAgent(): Dispatcher {
  publicOnlyAgent ??= createDownloadAgent({ allowLoopback: false, trustedOrigin: null });
  return publicOnlyAgent;
}

export interface DownloadedOutput {
  /** Relative to the library folder, with forward slashes. */
  path: string;
  mime: string;
  /**
   * The media kind the saved bytes are (the media table's recognisers), `file` when none
   * recognises them: a `file` output's real kind (a result the last pass found at an address
   * without an extension).
   */
  kind: OutputKind;
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
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /**
   * What the results of the task may still take (`left` bytes) of the cap on all of them
   * together (`cap`, named in the message); none: no cap beyond `maxBytes`.
   */
  taskBytes?: TaskBytes;
  /** Stops the download (the app is closing). */
  signal?: AbortSignal;
  /**
   * The agent that checks where each connection goes (guarded-agent.ts). Default: public
   * addresses only.
   */
  dispatcher?: Dispatcher;
  /** Limit of the whole download, and of a wait for the next bytes. Default 30 minutes and 60 s. */
  times?: DownloadTimes;
}

export interface TaskBytes {
  left: number;
  cap: number;
}

function toLibraryPath(libraryDir: string, absolute: string): string {
  return relative(resolve(libraryDir), absolute).split(sep).join('/');
}

/** Accepts the sniffed type for the expected kind; `file` outputs accept anything. */
function contentMatches(kind: OutputKind, sniffedKind: string | null): boolean {
  // a plain file is whatever no media kind recognises; the table's recogniser decides the rest
  if (MEDIA_KIND_TABLE[kind].recognise === null) return true;
  return sniffedKind === kind;
}

/** The failure of a file of `size` bytes, or null when the limits take it. */
function sizeProblem(size: number, options: DownloadOptions): OutputDownloadError | null {
  if (size > options.maxBytes) return fileTooLarge(options.maxBytes);
  if (options.taskBytes && size > options.taskBytes.left) return taskTooLarge(options.taskBytes.cap);
  return null;
}

/** Counts, caps, hashes and keeps the first bytes of what passes through. */
function byteMeter(options: DownloadOptions) {
  const seen = { size: 0, head: new Uint8Array(0), hash: createHash('sha256') };
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen.size += chunk.length;
      const problem = sizeProblem(seen.size, options);
      if (problem) {
        done(problem);
        return;
      }
      if (seen.head.length < 64)
        seen.head = Buffer.concat([seen.head, chunk.subarray(0, 64 - seen.head.length)]);
      seen.hash.update(chunk);
      done(null, chunk);
    },
  });
  return { seen, stream };
}

/** Writes the bytes of a `data:` output (Base64 only) through the meter. */
async function writeDataUri(url: string, meter: Transform, tempPath: string): Promise<void> {
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).endsWith(';base64')) {
    throw finalFailure('the service gave it inline as data that is not Base64');
  }
  const bytes = Buffer.from(url.slice(comma + 1), 'base64');
  await pipeline(Readable.from([bytes]), meter, createWriteStream(tempPath));
}

/** An error of the local file system (disk full, read-only, …): Node's file errors name their path. */
function isFileError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && typeof (err as { path?: unknown }).path === 'string';
}

/**
 * Streams an http(s) output through the meter, within the time limits: every failure becomes
 * an OutputDownloadError (or OutputExpiredError) with a sentence of its own.
 */
async function writeHttpOutput(
  url: string,
  options: DownloadOptions,
  meter: Transform,
  tempPath: string,
): Promise<void> {
  const times = options.times ?? DEFAULT_DOWNLOAD_TIMES;
  const total = AbortSignal.timeout(times.totalMs);
  const signal = options.signal ? AbortSignal.any([total, options.signal]) : total;
  try {
    const response = await fetchOutput(url, {
      dispatcher: options.dispatcher ?? defaultAgent(),
      signal,
      idleMs: times.idleMs,
    });
    const declared = Number(response.headers['content-length']);
    const problem = Number.isFinite(declared) ? sizeProblem(declared, options) : null;
    if (problem) {
      response.body.destroy();
      throw problem;
    }
    await pipeline(response.body, meter, createWriteStream(tempPath));
  } catch (err) {
    // an expiry, and the library's own disk failing (a file error carries its path), pass as they are
    if (err instanceof OutputExpiredError || isFileError(err)) throw err;
    throw downloadFailureOf(err, times, {
      totalTimedOut: total.aborted,
      stopped: options.signal?.aborted === true,
    });
  }
}

export async function downloadOutput(url: string, options: DownloadOptions): Promise<DownloadedOutput> {
  const { libraryDir, taskBytes } = options;
  // the task's results already fill its cap: nothing is fetched
  if (taskBytes && taskBytes.left <= 0) throw taskTooLarge(taskBytes.cap);
  // a new owner-only file in the app's own `.partial` folder (partial-folder.ts)
  const tempPath = await createPartialFile(libraryDir);
  const { seen, stream } = byteMeter(options);
  try {
    if (url.startsWith('data:')) await writeDataUri(url, stream, tempPath);
    else await writeHttpOutput(url, options, stream, tempPath);
    if (seen.size === 0) throw retryableFailure('its server sent an empty file');
    const sniffed = sniffFileType(seen.head);
    if (!contentMatches(options.kind, sniffed?.kind ?? null)) {
      throw finalFailure(
        `it should be a ${MEDIA_KIND_TABLE[options.kind].label} but its content is ${sniffed ? sniffed.mime : 'not a known media type'}`,
      );
    }
    const folder = taskFolder(libraryDir, options.taskId, options.createdAt);
    await ensureFolderBelow(resolve(libraryDir), folder); // mode 0700, no link followed on the way
    const plain = MEDIA_KIND_TABLE.file.formats[0]!;
    const ext = sniffed?.ext ?? plain.ext;
    const finalPath = join(folder, `output-${options.index + 1}.${ext}`);
    await rename(tempPath, finalPath);
    return {
      path: toLibraryPath(libraryDir, finalPath),
      mime: sniffed?.mime ?? plain.mime,
      kind: sniffed?.kind ?? 'file',
      size: seen.size,
      sha256: seen.hash.digest('hex'),
    };
  } finally {
    await rm(tempPath, { force: true });
  }
}
