/** The service's base URL, checked once, and the task paths joined under it. */

export interface ServiceEndpoint {
  /** `scheme://host:port`, the key of the connection pool. */
  origin: string;
  /** Path prefix carried by the base URL, without a trailing slash (`''` when none). */
  pathPrefix: string;
}

export function parseBaseUrl(baseUrl: string): ServiceEndpoint {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new TypeError(`The service base URL is not a valid URL: "${baseUrl}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`The service base URL must start with http:// or https://, got "${url.protocol}"`);
  }
  if (url.username || url.password) {
    throw new TypeError('The service base URL must not carry a user name or password');
  }
  if (url.search || url.hash) {
    throw new TypeError('The service base URL must not carry a query or a fragment');
  }
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * Every path under the base URL the client sends the key to. The key binding lists each of them
 * in full (src/core/settings/key-binding.ts, issue 17 item 1), so an endpoint is added here or
 * not at all (test/service/key-addresses.test.ts).
 */
export const SERVICE_PATHS = {
  tasks: '/api/v1/task',
  balance: '/account/info',
  history: '/api/open/tasks/histories',
  running: '/account/active_tasks',
} as const;

/** `/api/v1/task` under the prefix, or `/api/v1/task/{id}` with the id percent-encoded. */
export function taskPath(endpoint: ServiceEndpoint, taskId?: string): string {
  const base = `${endpoint.pathPrefix}${SERVICE_PATHS.tasks}`;
  return taskId === undefined ? base : `${base}/${encodeURIComponent(taskId)}`;
}
