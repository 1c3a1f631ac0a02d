/**
 * A new API key is tried with the balance call before it is stored: a key the service refuses
 * (401) is never kept, so the key in use (or demo mode) stays. A key that cannot be tried (the
 * service does not answer: offline, or no address yet) is stored as before, since the app works
 * offline; Settings then says the service was not reached. Any other answer (a plan that may not
 * read the balance, a server failure) says nothing against the key, so it is stored.
 */
import { ServiceClient, UnauthorizedError } from '../../core/service/index.ts';
import { StudioCallError } from './call-errors.ts';

/**
 * One try, not the engine's retries, and 5 s for the whole of it (connecting, the headers, the
 * body): the user waits for this answer in Settings. A check cut off there is a key not tried.
 */
const CHECK_MS = 5_000;
const CHECK_TIMEOUTS = { connectMs: CHECK_MS, headersMs: CHECK_MS, bodyMs: CHECK_MS };

/** The words for a refused key: what happened and what to do, once (review s7b, defect 2). */
export function refusedKeyMessage(said: string | null): string {
  const words = said?.trim().replace(/[.\s]+$/, '');
  return `The service refused this key${words ? `: ${words}` : ''}. Check that you copied the whole key from your account page.`;
}

/** Throws a `StudioCallError` (kind `unauthorized`, field `key`) when the service at `baseUrl` refuses `key`. */
export async function refuseKeyTheServiceRefuses(baseUrl: string | null, key: string): Promise<void> {
  if (!baseUrl) return;
  let client: ServiceClient;
  try {
    client = new ServiceClient({ baseUrl, apiKey: key, timeouts: CHECK_TIMEOUTS, retry: { maxAttempts: 1 } });
  } catch {
    // an address the key may not go to, or a key of a wrong form: Settings says why once it is stored
    return;
  }
  try {
    await client.getAccount({ signal: AbortSignal.timeout(CHECK_MS) });
  } catch (err) {
    if (err instanceof UnauthorizedError) {
      throw new StudioCallError('unauthorized', refusedKeyMessage(err.serviceMessage), 'key');
    }
  } finally {
    await client.close();
  }
}
