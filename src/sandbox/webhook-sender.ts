/**
 * Webhook deliveries (field notes): POST `{timestamp, data}` with `x-webhook-secret`, retried
 * with doubling backoff on a non-2xx answer, a network error or a 5 s timeout. Every attempt
 * is recorded.
 */
import type { WebhookDelivery } from './options.ts';
import { describeError, type OutboundHttp } from './outbound-http.ts';
import type { TaskScheduler } from './task-scheduler.ts';

export const WEBHOOK_TIMEOUT_MS = 5_000;

export interface WebhookSenderOptions {
  attempts: number;
  backoffMs: number;
  http: OutboundHttp;
  scheduler: TaskScheduler;
  /** Called with each attempt's result. */
  record: (delivery: WebhookDelivery) => void;
}

export interface WebhookJob {
  taskId: string;
  endpoint: string;
  secret: string;
  /** The JSON body; built once, so every retry sends the same payload. */
  body: string;
}

export class WebhookSender {
  private readonly options: WebhookSenderOptions;
  private stopped = false;

  constructor(options: WebhookSenderOptions) {
    this.options = options;
  }

  send(job: WebhookJob): void {
    void this.attempt(job, 1);
  }

  stop(): void {
    this.stopped = true;
  }

  private async attempt(job: WebhookJob, attempt: number): Promise<void> {
    if (this.stopped) return;
    const { http, record, attempts, backoffMs, scheduler } = this.options;
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = await http.postJson(
        job.endpoint,
        job.body,
        { 'x-webhook-secret': job.secret },
        WEBHOOK_TIMEOUT_MS,
      );
      if (status < 200 || status > 299) error = `HTTP ${status}`;
    } catch (err) {
      error = describeError(err);
    }
    if (this.stopped) return;
    record({
      taskId: job.taskId,
      endpoint: job.endpoint,
      attempt,
      status,
      error,
      at: new Date().toISOString(),
    });
    if (error !== null && attempt < attempts) {
      scheduler.after(backoffMs * 2 ** (attempt - 1), () => void this.attempt(job, attempt + 1));
    }
  }
}
