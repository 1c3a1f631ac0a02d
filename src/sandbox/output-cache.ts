/**
 * The output cache: the bytes of output files, kept in memory under a byte budget. Outputs that can be made again
 * from their parameters (audio, video, text-to-image) share one copy per distinct parameters and
 * may be evicted when over budget (they are regenerated on the next download); outputs derived
 * from uploaded images are pinned until their task's outputs expire.
 */

interface CachedBlob {
  key: string;
  contentType: string;
  bytes: Buffer | null;
  produce: (() => Promise<Buffer>) | null;
  refs: number;
}

export const DEFAULT_OUTPUT_BUDGET_BYTES = 512 * 1024 * 1024;

export class OutputCache {
  /** In least-recently-used order (a hit moves the blob to the end). */
  private readonly blobs = new Map<string, CachedBlob>();
  private readonly inFlight = new Map<string, Promise<Buffer>>();
  private bytesHeld = 0;
  private readonly budget: number;

  constructor(budgetBytes = DEFAULT_OUTPUT_BUDGET_BYTES) {
    this.budget = budgetBytes;
  }

  /**
   * Makes (or reuses) the blob `key` and takes one reference to it. `regenerable` blobs keep
   * `produce` so they can be evicted and made again.
   */
  async acquire(
    key: string,
    contentType: string,
    produce: () => Promise<Buffer>,
    regenerable: boolean,
  ): Promise<Buffer> {
    const bytes = await this.bytesOf(key, contentType, produce, regenerable);
    const blob = this.blobs.get(key);
    if (blob) blob.refs++;
    return bytes;
  }

  /** The bytes of a blob (regenerated if evicted), or null when it is gone. */
  async read(key: string): Promise<{ bytes: Buffer; contentType: string } | null> {
    const blob = this.blobs.get(key);
    if (!blob) return null;
    if (blob.bytes) {
      this.touch(blob);
      return { bytes: blob.bytes, contentType: blob.contentType };
    }
    if (!blob.produce) return null;
    const bytes = await this.bytesOf(key, blob.contentType, blob.produce, true);
    return { bytes, contentType: blob.contentType };
  }

  /** Drops one reference; the blob is forgotten when none remain. */
  release(key: string): void {
    const blob = this.blobs.get(key);
    if (!blob) return;
    blob.refs--;
    if (blob.refs > 0) return;
    if (blob.bytes) this.bytesHeld -= blob.bytes.length;
    this.blobs.delete(key);
  }

  get heldBytes(): number {
    return this.bytesHeld;
  }

  clear(): void {
    this.blobs.clear();
    this.inFlight.clear();
    this.bytesHeld = 0;
  }

  private bytesOf(
    key: string,
    contentType: string,
    produce: () => Promise<Buffer>,
    regenerable: boolean,
  ): Promise<Buffer> {
    const blob = this.blobs.get(key);
    if (blob?.bytes) {
      this.touch(blob);
      return Promise.resolve(blob.bytes);
    }
    const running = this.inFlight.get(key);
    if (running) return running;
    const job = produce().then(
      (bytes) => {
        this.inFlight.delete(key);
        this.keep(key, contentType, bytes, regenerable ? produce : null);
        return bytes;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, job);
    return job;
  }

  private keep(
    key: string,
    contentType: string,
    bytes: Buffer,
    produce: (() => Promise<Buffer>) | null,
  ): void {
    const existing = this.blobs.get(key);
    if (existing) {
      if (!existing.bytes) {
        existing.bytes = bytes;
        this.bytesHeld += bytes.length;
      }
      this.touch(existing);
    } else {
      this.blobs.set(key, { key, contentType, bytes, produce, refs: 0 });
      this.bytesHeld += bytes.length;
    }
    this.evictOverBudget();
  }

  private touch(blob: CachedBlob): void {
    this.blobs.delete(blob.key);
    this.blobs.set(blob.key, blob);
  }

  private evictOverBudget(): void {
    if (this.bytesHeld <= this.budget) return;
    for (const blob of this.blobs.values()) {
      if (this.bytesHeld <= this.budget) return;
      if (!blob.produce || !blob.bytes) continue;
      this.bytesHeld -= blob.bytes.length;
      blob.bytes = null;
    }
  }
}
