/** Waiting in node for real state (ledger entries, SQLite rows, files, a backend's answers). */

/**
 * Resolves with the first truthy value of `check` (asked every `intervalMs`), or throws after
 * `timeoutMs` naming `what`. The one poller of the tests (node, the browser harness, benches).
 */
export async function waitUntil<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  what = 'condition',
  timeoutMs = 15_000,
  intervalMs = 25,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
