/**
 * A task's webhook secret goes to the service with the create and nowhere else (security review,
 * issue 17, item 9). The library's store keeps it inside the stored request, but every Task it
 * hands out carries `webhook_config` as `{ endpoint, secret_set }`: the window, the command line
 * and an export's task.json see whether a secret is set, never the secret. The engine reads it
 * back by task id only to build the create (`LibraryStore.webhookSecretOf`), and a re-run keeps
 * it, for the same endpoint only, through `sameSecretAs` (task-draft.ts) instead of the page
 * reading it.
 */

type RequestConfig = { config?: Record<string, unknown> };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request's `config.webhook_config` object, or null when it has none. */
function webhookConfigOf(request: RequestConfig): Record<string, unknown> | null {
  const hook = request.config?.webhook_config;
  return isObject(hook) ? hook : null;
}

/** The webhook endpoint of a request ('' when none). */
export function webhookEndpointOf(request: RequestConfig): string {
  const endpoint = webhookConfigOf(request)?.endpoint;
  return typeof endpoint === 'string' ? endpoint : '';
}

/** Whether a task's request (as a Task shows it) has a webhook secret. */
export function webhookSecretSet(request: RequestConfig): boolean {
  return webhookConfigOf(request)?.secret_set === true || webhookSecretOf(request) !== '';
}

/** The webhook secret of a stored request ('' when none). */
export function webhookSecretOf(request: RequestConfig): string {
  const secret = webhookConfigOf(request)?.secret;
  return typeof secret === 'string' ? secret : '';
}

/** The request with its webhook secret replaced by `secret_set` (a copy; unchanged when it has no webhook). */
export function withoutWebhookSecret<R extends RequestConfig>(request: R): R {
  const hook = webhookConfigOf(request);
  if (!hook || !('secret' in hook)) return request;
  const { secret, ...rest } = hook;
  const view = { ...rest, secret_set: typeof secret === 'string' && secret !== '' };
  return { ...request, config: { ...request.config, webhook_config: view } };
}

/** The request as the service takes it: `webhook_config` with its `secret` again (a copy). */
export function withWebhookSecret<R extends RequestConfig>(request: R, secret: string): R {
  const hook = webhookConfigOf(request);
  if (!hook) return request;
  const { secret_set: _set, ...rest } = hook;
  return { ...request, config: { ...request.config, webhook_config: { ...rest, secret } } };
}
