/**
 * Uploaded files: their bytes are kept (pinned) in the output cache, served at
 * `/temp/<uuid>.<ext>` (the path ends in the file's extension, as face-swap URLs must) until
 * their time to live has passed, then they answer 410 like expired outputs.
 */
import { randomUUID } from 'node:crypto';
import type { OutputCache } from './output-cache.ts';
import type { TaskScheduler } from './task-scheduler.ts';
import type { CheckedUpload } from './upload-check.ts';
import { sniffContentType } from './upload-check.ts';

/** Where uploads are served under the sandbox's base URL. */
export const UPLOADS_PREFIX = '/temp/';

interface UploadEntry {
  key: string;
  contentType: string;
  expiresAt: number;
  released: boolean;
}

export class UploadedFiles {
  /** By served name (`<uuid>.<ext>`); expired entries stay as tombstones so they answer 410. */
  private readonly uploads = new Map<string, UploadEntry>();
  private readonly outputs: OutputCache;
  private readonly scheduler: TaskScheduler;
  private readonly ttlMs: number;

  constructor(outputs: OutputCache, scheduler: TaskScheduler, ttlMs: number) {
    this.outputs = outputs;
    this.scheduler = scheduler;
    this.ttlMs = ttlMs;
  }

  /** Keeps the file and returns the path it is served at (under the base URL). */
  async put(upload: CheckedUpload, now: number): Promise<string> {
    const name = `${randomUUID()}.${upload.extension}`;
    const key = `upload:${name}`;
    const contentType = sniffContentType(upload.bytes);
    await this.outputs.acquire(key, contentType, () => Promise.resolve(upload.bytes), false);
    const entry: UploadEntry = { key, contentType, expiresAt: now + this.ttlMs, released: false };
    this.uploads.set(name, entry);
    this.scheduler.at(entry.expiresAt, () => this.release(entry));
    return `${UPLOADS_PREFIX}${name}`;
  }

  /** The bytes of an upload by its served name; 'expired' once its time has passed; null when unknown. */
  async read(name: string, now: number): Promise<{ bytes: Buffer; contentType: string } | 'expired' | null> {
    const entry = this.uploads.get(name);
    if (!entry) return null;
    if (entry.released || now >= entry.expiresAt) return 'expired';
    return (await this.outputs.read(entry.key)) ?? 'expired';
  }

  private release(entry: UploadEntry): void {
    if (entry.released) return;
    entry.released = true;
    this.outputs.release(entry.key);
  }
}
