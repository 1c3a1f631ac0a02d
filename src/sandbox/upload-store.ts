/**
 * Uploaded files: their bytes are kept (pinned) in the output store, served at
 * `/temp/<uuid>.<ext>` (the path ends in the file's extension, as face-swap URLs must) until
 * their time to live has passed, then they answer 410 like expired outputs.
 */
import { randomUUID } from 'node:crypto';
import type { OutputStore } from './output-store.ts';
import type { TaskScheduler } from './task-scheduler.ts';
import type { CheckedUpload } from './upload-check.ts';
import { sniffContentType } from './upload-check.ts';

/** Where uploads are served under the sandbox's base URL. */
export const UPLOADS_PREFIX = '/temp/';

interface StoredUpload {
  key: string;
  contentType: string;
  expiresAt: number;
  released: boolean;
}

export class UploadStore {
  /** By served name (`<uuid>.<ext>`); expired entries stay as tombstones so they answer 410. */
  private readonly uploads = new Map<string, StoredUpload>();
  private readonly outputs: OutputStore;
  private readonly scheduler: TaskScheduler;
  private readonly ttlMs: number;

  constructor(outputs: OutputStore, scheduler: TaskScheduler, ttlMs: number) {
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
    const stored: StoredUpload = { key, contentType, expiresAt: now + this.ttlMs, released: false };
    this.uploads.set(name, stored);
    this.scheduler.at(stored.expiresAt, () => this.release(stored));
    return `${UPLOADS_PREFIX}${name}`;
  }

  /** The bytes of an upload by its served name; 'expired' once its time has passed; null when unknown. */
  async read(name: string, now: number): Promise<{ bytes: Buffer; contentType: string } | 'expired' | null> {
    const stored = this.uploads.get(name);
    if (!stored) return null;
    if (stored.released || now >= stored.expiresAt) return 'expired';
    return (await this.outputs.read(stored.key)) ?? 'expired';
  }

  private release(stored: StoredUpload): void {
    if (stored.released) return;
    stored.released = true;
    this.outputs.release(stored.key);
  }
}
