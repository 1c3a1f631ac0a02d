/**
 * The tasks of the sandbox: creation, the ledger, the account's balance, the lifecycle (staged ->
 * pending -> processing -> completed | failed), per-key concurrency, output files, expiry and webhooks.
 *
 * Status is computed lazily from the clock on every read, and the scheduler moves tasks at
 * their end time too, so webhooks fire and staged tasks are admitted without any fetch.
 */
import { randomUUID } from 'node:crypto';
import { estimatePrice } from '../shared/catalog/index.ts';
import { loadSourceAudio, SourceAudioError, sourceAudioFailure } from './audio-source.ts';
import type { ValidatedCreate } from './create-validation.ts';
import { SandboxHttpError } from './error-body.ts';
import type { FaultInjector } from './fault-injector.ts';
import type { GenerationPool } from './generation-pool.ts';
import type { CheckedImage } from './image-input-check.ts';
import { imageDimensions, type VideoParams } from './media/index.ts';
import type { AnswerProfile, LedgerEntry } from './options.ts';
import type { OutputCache } from './output-cache.ts';
import { planOutputs } from './output-generation.ts';
import { fetchAnswer, fetchAnswerHasTimestamp, webhookPayload } from './task-forms.ts';
import { isActivePhase, type SandboxTask, type TaskErrorObject, type TaskOutputFile } from './task-record.ts';
import type { TaskScheduler } from './task-scheduler.ts';
import { stageDurations } from './task-timing.ts';
import type { WebhookSender } from './webhook-sender.ts';

export interface TaskLifecycleOptions {
  timeScale: number;
  concurrencyLimit: number;
  overLimit: 'stage' | 'refuse';
  outputTtlMs: number;
  profile: AnswerProfile;
  /** The account's starting balance in points (micro-dollars). */
  balanceMicros: number;
}

/** The account's money in points (1 point = 1 micro-USD). */
export interface AccountBalance {
  /** The starting balance (option balanceMicros). */
  balance: number;
  /** Held by tasks not yet completed or failed (their `usage.frozen`). */
  frozen: number;
  /** Consumed by completed tasks (their `usage.consume`). */
  used: number;
  /** What creates can still spend: balance - frozen - used. */
  available: number;
}

export interface TaskLifecycleParts {
  scheduler: TaskScheduler;
  faults: FaultInjector;
  outputs: OutputCache;
  generation: GenerationPool;
  webhooks: WebhookSender;
  /** The sandbox's base URL, known once it listens. */
  baseUrl: () => string;
  /** Downloads a source song's URL (outbound policy applied). */
  fetchAudio: (url: string) => Promise<Buffer>;
}

const INJECTED_FAILURE: TaskErrorObject = {
  code: 10000,
  message: 'task failed: generation error',
  raw_message: 'sandbox fault injection: taskFailureRate',
  detail: null,
};

export class TaskLifecycle {
  private readonly tasks = new Map<string, SandboxTask>();
  private readonly entries: LedgerEntry[] = [];
  private readonly active = new Map<string, number>();
  private readonly staged = new Map<string, SandboxTask[]>();
  private seq = 0;
  private frozenMicros = 0;
  private usedMicros = 0;
  private readonly options: TaskLifecycleOptions;
  private readonly parts: TaskLifecycleParts;

  constructor(options: TaskLifecycleOptions, parts: TaskLifecycleParts) {
    this.options = options;
    this.parts = parts;
  }

  ledger(): LedgerEntry[] {
    return this.entries.slice();
  }

  get size(): number {
    return this.tasks.size;
  }

  /** The account's balance now. */
  account(): AccountBalance {
    const balance = this.options.balanceMicros;
    const available = Math.max(0, balance - this.frozenMicros - this.usedMicros);
    return { balance, frozen: this.frozenMicros, used: this.usedMicros, available };
  }

  /**
   * Accepts a validated create: refuses it when the balance cannot pay (402) or, with
   * overLimit 'refuse', over the concurrency limit (429); else records it in the ledger, freezes
   * its price and starts (or stages) the task.
   */
  create(
    apiKey: string,
    request: ValidatedCreate,
    images: CheckedImage[],
    body: unknown,
    now: number,
  ): SandboxTask {
    const price = priceOf(request, images);
    this.checkBalance(price);
    const active = this.active.get(apiKey) ?? 0;
    const queue = this.staged.get(apiKey) ?? [];
    const overLimit = active >= this.options.concurrencyLimit || queue.length > 0;
    if (overLimit && this.options.overLimit === 'refuse') {
      throw new SandboxHttpError(
        429,
        `concurrency limit reached: ${active} tasks pending or processing for this key (limit ${this.options.concurrencyLimit})`,
        { 'retry-after': '1' },
      );
    }
    const task = this.newTask(apiKey, request, images, price, now);
    this.tasks.set(task.id, task);
    this.frozenMicros += price;
    this.entries.push({
      taskId: task.id,
      apiKey,
      model: task.model,
      taskType: task.taskType,
      body,
      receivedAt: new Date(now).toISOString(),
    });
    if (overLimit) {
      queue.push(task);
      this.staged.set(apiKey, queue);
    } else {
      this.admit(task, now);
    }
    return task;
  }

  /** A 402 when the available balance cannot pay `price` points. */
  private checkBalance(price: number): void {
    const { available } = this.account();
    if (price <= available) return;
    throw new SandboxHttpError(
      402,
      `insufficient credits: this task needs ${price} credits, ${available} left (1 credit = 1 micro-USD)`,
    );
  }

  /** The task, moved up to `now`; undefined when unknown. */
  get(id: string, now: number): SandboxTask | undefined {
    const task = this.tasks.get(id);
    if (task) this.advance(task, now);
    return task;
  }

  /** Every task `apiKey` created, each moved up to `now` (the history and running-task counts). */
  tasksOf(apiKey: string, now: number): SandboxTask[] {
    const out: SandboxTask[] = [];
    for (const task of this.tasks.values()) {
      if (task.apiKey !== apiKey) continue;
      this.advance(task, now);
      out.push(task);
    }
    return out;
  }

  /** The JSON text of a fetch answer, cached until the task changes. */
  fetchBody(task: SandboxTask, now: number): string {
    const key = fetchAnswerHasTimestamp(task, this.options.profile)
      ? `${task.version}|${Math.floor(now / 1000)}`
      : `${task.version}`;
    if (task.cachedBody?.key === key) return task.cachedBody.body;
    const body = JSON.stringify(fetchAnswer(task, now, this.options.profile));
    task.cachedBody = { key, body };
    return body;
  }

  /** The output file `name` of a task, with whether it has expired. */
  outputFile(taskId: string, name: string, now: number): { file: TaskOutputFile; expired: boolean } | null {
    const task = this.tasks.get(taskId);
    if (task?.phase !== 'completed') return null;
    const file = task.outputs.find((o) => o.name === name);
    if (!file) return null;
    return { file, expired: task.expiresAt !== null && now >= task.expiresAt };
  }

  private newTask(
    apiKey: string,
    request: ValidatedCreate,
    images: CheckedImage[],
    price: number,
    now: number,
  ): SandboxTask {
    const id = randomUUID();
    const { fail, earlyExpiry } = this.parts.faults.drawTask();
    const { pendingMs, processingMs } = stageDurations(
      id,
      request.taskType,
      request.input,
      this.options.timeScale,
    );
    return {
      id,
      seq: ++this.seq,
      apiKey,
      model: request.model,
      taskType: request.taskType,
      entry: request.entry,
      requestInput: request.input,
      echoedInput: echoedInputOf(request),
      webhook: request.webhook,
      serviceMode: request.serviceMode,
      phase: 'staged',
      createdAt: now,
      startsAt: null,
      endsAt: null,
      endedAt: null,
      updatedAt: now,
      pendingMs,
      processingMs,
      willFail: fail,
      earlyExpiry,
      outputTtlMs: earlyExpiry ? this.parts.faults.earlyExpiryMs : this.options.outputTtlMs,
      images,
      outputs: [],
      expiresAt: null,
      outputsReleased: false,
      frozen: price,
      consume: 0,
      error: null,
      version: 0,
      cachedBody: null,
    };
  }

  private touch(task: SandboxTask, now: number): void {
    task.version++;
    task.updatedAt = now;
  }

  private admit(task: SandboxTask, now: number): void {
    task.phase = 'pending';
    task.startsAt = now + task.pendingMs;
    task.endsAt = task.startsAt + task.processingMs;
    this.active.set(task.apiKey, (this.active.get(task.apiKey) ?? 0) + 1);
    this.touch(task, now);
    this.parts.scheduler.at(task.endsAt, () => this.advance(task, Date.now()));
    this.advance(task, now);
  }

  private advance(task: SandboxTask, now: number): void {
    if (task.phase === 'pending' && task.startsAt !== null && now >= task.startsAt) {
      task.phase = 'processing';
      this.touch(task, now);
    }
    if (task.phase === 'processing' && task.endsAt !== null && now >= task.endsAt) {
      if (task.willFail) {
        this.fail(task, task.endsAt, INJECTED_FAILURE);
      } else {
        task.phase = 'finishing';
        this.touch(task, now);
        this.makeOutputs(task);
      }
    }
  }

  /** Reads the source song (if the task type has one), then makes and describes every output file. */
  private makeOutputs(task: SandboxTask): void {
    const base = this.parts.baseUrl();
    const make = async () => {
      const audio = await loadSourceAudio(task.taskType, task.requestInput, this.parts.fetchAudio);
      const planned = planOutputs({
        id: task.id,
        entry: task.entry,
        taskType: task.taskType,
        input: task.requestInput,
        images: task.images ?? [],
        audio,
        videoAt: (url) => this.videoMadeAt(url, base),
        run: (job) => this.parts.generation.run(job),
      });
      const files: TaskOutputFile[] = [];
      for (const p of planned) {
        const bytes = await this.parts.outputs.acquire(p.key, p.contentType, p.produce, p.regenerable);
        const dims = p.contentType.startsWith('image/') ? await imageDimensions(bytes) : null;
        files.push({
          name: p.name,
          contentType: p.contentType,
          key: p.key,
          url: `${base}/files/${task.id}/${p.name}`,
          width: dims?.width ?? null,
          height: dims?.height ?? null,
          seconds: p.seconds,
          ...(p.video ? { video: p.video } : {}),
        });
      }
      return files;
    };
    make().then(
      (files) => this.complete(task, files, Date.now()),
      (err: unknown) =>
        this.fail(
          task,
          Date.now(),
          err instanceof SourceAudioError ? sourceAudioFailure(err) : outputFailure(err),
        ),
    );
  }

  /** What the video this sandbox serves at `url` (`<base>/files/<task>/<name>`) was made with, or null. */
  private videoMadeAt(url: string, base: string): VideoParams | null {
    const [taskId, name, ...rest] = url.startsWith(`${base}/files/`)
      ? url.slice(base.length + 7).split('/')
      : [];
    if (!taskId || !name || rest.length > 0) return null;
    return this.tasks.get(taskId)?.outputs?.find((file) => file.name === name)?.video ?? null;
  }

  private complete(task: SandboxTask, files: TaskOutputFile[], now: number): void {
    if (task.phase !== 'finishing') return;
    task.phase = 'completed';
    task.outputs = files;
    task.endedAt = now;
    task.consume = task.frozen;
    this.frozenMicros -= task.frozen;
    this.usedMicros += task.consume;
    task.images = null;
    task.expiresAt = now + task.outputTtlMs;
    this.touch(task, now);
    this.parts.scheduler.at(task.expiresAt, () => this.releaseOutputs(task));
    this.settle(task, now);
  }

  private fail(task: SandboxTask, at: number, error: TaskErrorObject): void {
    if (!isActivePhase(task.phase)) return;
    task.phase = 'failed';
    task.endedAt = at;
    task.error = { ...error };
    task.consume = 0;
    this.frozenMicros -= task.frozen;
    task.images = null;
    this.touch(task, Date.now());
    this.settle(task, Date.now());
  }

  /** A task reached completed or failed: free its slot, admit a staged task, notify. */
  private settle(task: SandboxTask, now: number): void {
    const key = task.apiKey;
    this.active.set(key, Math.max(0, (this.active.get(key) ?? 1) - 1));
    this.admitStaged(key, now);
    if (task.webhook.endpoint !== '') {
      this.parts.webhooks.send({
        taskId: task.id,
        endpoint: task.webhook.endpoint,
        secret: task.webhook.secret,
        body: JSON.stringify(webhookPayload(task, now, this.options.profile)),
      });
    }
  }

  private admitStaged(key: string, now: number): void {
    const queue = this.staged.get(key);
    while (queue && queue.length > 0 && (this.active.get(key) ?? 0) < this.options.concurrencyLimit) {
      this.admit(queue.shift()!, now);
    }
  }

  private releaseOutputs(task: SandboxTask): void {
    if (task.outputsReleased) return;
    task.outputsReleased = true;
    for (const o of task.outputs) this.parts.outputs.release(o.key);
  }
}

/** The error of a task whose output files could not be made. */
function outputFailure(err: unknown): TaskErrorObject {
  return {
    code: 10001,
    message: 'task failed: the output could not be made',
    raw_message: `sandbox output generation failed: ${err instanceof Error ? err.message : String(err)}`,
    detail: null,
  };
}

/**
 * The input as the record shows it: ace-step echoes negative_prompt as negative_style_prompt
 * (spec 2.2), the name the real service's clients also send.
 */
function echoedInputOf(request: ValidatedCreate): Record<string, unknown> {
  if (request.entry.modelName !== 'ace-step') return { ...request.input };
  const { negative_prompt, negative_style_prompt, ...rest } = request.input;
  const echoed: Record<string, unknown> = {
    ...rest,
    negative_style_prompt: negative_style_prompt ?? negative_prompt ?? '',
  };
  if (request.taskType === 'txt2audio' || request.taskType === 'audio2audio') {
    echoed.style_prompt ??= '';
    echoed.lyrics ??= '';
    echoed.style_audio ??= '';
  }
  return echoed;
}

/**
 * What the sandbox charges for a create: its entry's published price for this input (a
 * picture's size from the decoded image); nothing when the price is not published or needs
 * what the sandbox does not read (a video's frame count).
 */
function priceOf(request: ValidatedCreate, images: readonly CheckedImage[]): number {
  const { price } = request.entry;
  if (!price) return 0;
  const media = Object.fromEntries(images.map((i) => [i.name, { width: i.width, height: i.height }]));
  return estimatePrice(price, request.input, media).micros ?? 0;
}
