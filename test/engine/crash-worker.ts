/**
 * Child process of the crash test: opens the engine on a library, queues songs until the
 * library holds the requested number (each with a unique marker in its style prompt), and runs
 * until nothing is left to do: no work, and every uncertain task settled from the service's
 * history (create-settlement.ts, its window 5 s, not 10 min: the sandbox shares this computer's clock).
 * The parent kills it with SIGKILL at random moments.
 * Usage: node crash-worker.ts LIBRARY SANDBOX_URL API_KEY TOTAL [MAX_ACTIVE]
 * (MAX_ACTIVE: tasks at the service at once, 8 unless given.)
 */
import { TaskEngine } from '../../src/core/engine/index.ts';
import { ENGINE_WORK_STATES, MODELS } from '../../src/shared/index.ts';

const [libraryDir, baseUrl, apiKey, totalText, maxActiveText] = process.argv.slice(2);
const total = Number(totalText);

const engine = await TaskEngine.open({
  libraryDir: libraryDir as string,
  service: { baseUrl: baseUrl as string, apiKey: apiKey as string },
  maxActiveRemote: maxActiveText ? Number(maxActiveText) : 8,
  fetchesPerSecond: 500,
  polling: {
    minIntervalMs: 30,
    maxIntervalMs: 300,
    elapsedFraction: 0.05,
    firstFetchNoHistoryMs: 30,
    jitter: 0.1,
  },
  offlineBackoff: { baseMs: 50, maxMs: 200 },
  clientRetry: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 100 },
  // a create may reach the service seconds after the task was marked as being sent (429s and cut
  // connections retried inside the call, Retry-After 1 s, a loaded machine): the window covers that
  settlement: { windowMs: 5_000, marginMs: 500, recheckMs: 200 },
});
process.stdout.write('READY\n');
for (let n = engine.store.countTasks({}).total; n < total; n++) {
  await engine.queueTask({
    model: MODELS.audio,
    taskType: 'txt2audio',
    input: { style_prompt: `crash-${n}`, duration: 2 },
  });
}
const decided = new Set(['not-created', 'choose']);
for (;;) {
  const unsettled = engine.store
    .tasksInStates(['uncertain'])
    .filter((t) => !decided.has(t.settlement?.outcome ?? '')).length;
  if (engine.store.countInStates(ENGINE_WORK_STATES) === 0 && unsettled === 0) break;
  await new Promise((r) => setTimeout(r, 50));
}
await engine.close();
process.stdout.write('IDLE\n');
