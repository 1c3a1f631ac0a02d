/**
 * Runs generation jobs on worker threads (default one: this machine class has two cores, one
 * for HTTP, one for media). When a worker cannot start (e.g. the code was bundled and the
 * worker file is not there) or `workers` is 0, jobs run on the main thread, one at a time, each
 * from a fresh turn of the event loop.
 */
import { Worker } from 'node:worker_threads';
import { type GenerationJob, runGenerationJob } from './generation-jobs.ts';

interface Pending {
  job: GenerationJob;
  resolve: (bytes: Buffer) => void;
  reject: (err: Error) => void;
}

interface WorkerReply {
  id: number;
  ok: boolean;
  bytes?: Uint8Array;
  error?: string;
}

interface Slot {
  worker: Worker;
  busy: Map<number, Pending>;
  /** True once it has answered a job: a later crash is a crash, not a failure to start. */
  proven: boolean;
}

/** Jobs sent to one worker before it answers (keeps it busy between two messages). */
const PER_WORKER = 2;
/** Worker crashes after which generation moves to the main thread for good. */
const MAX_CRASHES = 3;

export class GenerationPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private inProcess: boolean;
  private inProcessRunning = 0;
  private stopped = false;
  private crashes = 0;
  private readonly size: number;
  private readonly workerUrl: URL;

  constructor(workers = 1, workerUrl = new URL('./generation-worker.ts', import.meta.url)) {
    this.size = Math.max(0, Math.floor(workers));
    this.inProcess = this.size === 0;
    this.workerUrl = workerUrl;
  }

  run(job: GenerationJob): Promise<Buffer> {
    if (this.stopped) return Promise.reject(new Error('sandbox stopped'));
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const error = new Error('sandbox stopped');
    for (const p of this.queue.splice(0)) p.reject(error);
    await Promise.all(
      this.slots.splice(0).map((slot) => {
        for (const p of slot.busy.values()) p.reject(error);
        return slot.worker.terminate();
      }),
    );
  }

  private pump(): void {
    if (this.stopped) return;
    if (this.inProcess) {
      this.pumpInProcess();
      return;
    }
    while (this.slots.length < this.size) this.slots.push(this.startWorker());
    for (const slot of this.slots) {
      while (slot.busy.size < PER_WORKER && this.queue.length > 0) {
        const pending = this.queue.shift()!;
        const id = this.nextId++;
        slot.busy.set(id, pending);
        slot.worker.postMessage({ id, job: pending.job });
      }
    }
  }

  private pumpInProcess(): void {
    if (this.inProcessRunning > 0) return;
    const pending = this.queue.shift();
    if (!pending) return;
    this.inProcessRunning++;
    setImmediate(() => {
      runGenerationJob(pending.job)
        .then(pending.resolve, pending.reject)
        .finally(() => {
          this.inProcessRunning--;
          this.pump();
        });
    });
  }

  private startWorker(): Slot {
    const worker = new Worker(this.workerUrl);
    worker.unref();
    const slot: Slot = { worker, busy: new Map(), proven: false };
    worker.on('message', (reply: WorkerReply) => {
      slot.proven = true;
      const pending = slot.busy.get(reply.id);
      if (!pending) return;
      slot.busy.delete(reply.id);
      if (reply.ok && reply.bytes) {
        pending.resolve(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
      } else {
        pending.reject(new Error(reply.error ?? 'generation failed'));
      }
      this.pump();
    });
    worker.on('error', (err) => this.workerLost(slot, err));
    worker.on('exit', (code) => {
      if (!this.stopped) this.workerLost(slot, new Error(`generation worker exited with code ${code}`));
    });
    return slot;
  }

  /** A worker died: requeue its jobs; if it never worked (or keeps dying), fall back to the main thread. */
  private workerLost(slot: Slot, err: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    this.queue.unshift(...slot.busy.values());
    slot.busy.clear();
    void slot.worker.terminate();
    if (slot.proven) this.crashes++;
    if (!slot.proven || this.crashes >= MAX_CRASHES) {
      this.inProcess = true;
      process.emitWarning(
        `sandbox generation worker unavailable, generating on the main thread: ${err.message}`,
      );
    }
    this.pump();
  }
}
