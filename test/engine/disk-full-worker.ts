/**
 * Child process of the disk-full test: opens the engine on a library with no service, queues
 * COUNT songs of SECONDS each (style prompt `disk-full-N`), prints `QUEUED`, then obeys stdin, one command a
 * line: `go` sets the service (the sandbox) so the engine starts sending; `dump` prints `DUMP`
 * and a JSON line of the engine status and every task. When stdin ends it closes the engine and
 * prints `CLOSED`. A crash shows as a non-zero exit.
 * Usage: node disk-full-worker.ts LIBRARY SANDBOX_URL API_KEY COUNT SECONDS
 */
import { createInterface } from 'node:readline';
import { TaskEngine } from '../../src/core/engine/index.ts';
import { MODELS } from '../../src/shared/index.ts';

const [libraryDir, baseUrl, apiKey, countText, secondsText] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];

const engine = await TaskEngine.open({
  libraryDir,
  service: null,
  fetchesPerSecond: 200,
  polling: {
    minIntervalMs: 40,
    maxIntervalMs: 400,
    elapsedFraction: 0.05,
    firstFetchNoHistoryMs: 40,
    jitter: 0.1,
  },
  offlineBackoff: { baseMs: 50, maxMs: 200 },
  clientRetry: { maxAttempts: 1 },
  storageRetryMs: 200,
});
for (let n = 0; n < Number(countText); n++) {
  await engine.queueTask({
    model: MODELS.audio,
    taskType: 'txt2audio',
    input: { style_prompt: `disk-full-${n}`, duration: Number(secondsText) },
  });
}
process.stdout.write('QUEUED\n');

function dump(): string {
  const tasks = engine.store.listTasks({ limit: 200 }).items.map((t) => ({
    id: t.id,
    marker: t.request.input.style_prompt,
    state: t.state,
    remoteId: t.remoteId,
    error: t.error?.message ?? null,
  }));
  return JSON.stringify({ status: engine.status(), tasks });
}

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'go') engine.setService({ baseUrl, apiKey });
  if (line === 'dump') process.stdout.write(`DUMP\n${dump()}\n`);
}
await engine.close();
process.stdout.write('CLOSED\n');
