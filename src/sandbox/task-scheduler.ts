/**
 * One timer for everything the sandbox must do later (task ends, staged admissions, webhook
 * retries, output expiry, slow answers): a min-heap of due times with a single armed
 * setTimeout, so thousands of tasks in flight cost one timer.
 */

interface ScheduledJob {
  at: number;
  seq: number;
  run: () => void;
}

/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class TaskScheduler {
  private readonly heap: ScheduledJob[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private armedAt = Number.POSITIVE_INFINITY;
  private stopped = false;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /** Runs `run` at wall time `at` (ms) or soon after. */
  at(at: number, run: () => void): void {
    if (this.stopped) return;
    this.push({ at, seq: this.seq++, run });
    if (at < this.armedAt) this.arm();
  }

  /** Runs `run` after `ms`. */
  after(ms: number, run: () => void): void {
    this.at(this.now() + Math.max(0, ms), run);
  }

  /** A promise resolved after `ms` (never, once stopped). */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  get size(): number {
    return this.heap.length;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.heap.length = 0;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const top = this.heap[0];
    if (!top) {
      this.armedAt = Number.POSITIVE_INFINITY;
      return;
    }
    this.armedAt = top.at;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, top.at - this.now()));
    this.timer = setTimeout(() => this.fire(), delay);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = null;
    this.armedAt = Number.POSITIVE_INFINITY;
    const now = this.now();
    let top = this.heap[0];
    while (top && top.at <= now && !this.stopped) {
      this.pop();
      try {
        top.run();
      } catch (err) {
        process.emitWarning(
          `sandbox scheduled job failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      top = this.heap[0];
    }
    if (!this.stopped) this.arm();
  }

  private push(job: ScheduledJob): void {
    const heap = this.heap;
    heap.push(job);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!earlier(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (!last || heap.length === 0) return;
    heap[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && earlier(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && earlier(heap[r]!, heap[m]!)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
}

function earlier(a: ScheduledJob, b: ScheduledJob): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
