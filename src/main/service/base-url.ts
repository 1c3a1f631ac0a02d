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

/** `/api/v1/task` under the prefix, or `/api/v1/task/{id}` with the id percent-encoded. */
export function taskPath(endpoint: ServiceEndpoint, taskId?: string): string {
  const base = `${endpoint.pathPrefix}/api/v1/task`;
  return taskId === undefined ? base : `${base}/${encodeURIComponent(taskId)}`;
}
