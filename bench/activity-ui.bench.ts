/**
 * The Activity view in Chromium with 1,000 active tasks streaming updates, against the same
 * page idle (the same 1,000 tasks, no updates), measured in the same run.
 *
 * The updates are real: 1,000 songs are queued while the network is off (so they all wait), the
 * Activity view is opened, and the network comes back; the engine then submits them to the
 * sandbox service (50 at a time, the most the settings allow), polls them and saves their results,
 * and every finished task is replaced by a newly queued one so that 1,000 stay active. Every change
 * reaches the page as the backend's coalesced `tasks.changed` deliveries, as in the app. The engine
 * runs with the app's own tuning (polls from 1 s, 10 fetches per second), and the sandbox at twice
 * the real service's pace (`timeScale` 0.5; a 1-second song waits ~1.5 s and works ~1 s), which
 * gives a steady stream of a few dozen task changes in ~18 deliveries per second; BENCH_TIME_SCALE
 * changes the pace.
 *
 * Busy share of the renderer's main thread over a window = the growth of the page's
 * `TaskDuration` (CDP Performance.getMetrics: time the main thread spent running tasks, counted
 * in thread CPU time — `timeDomain: 'threadTicks'` — so time the OS gave to other processes is not
 * counted as the page's work) divided by the wall time of the window. Long tasks (>= 50 ms,
 * PerformanceObserver, wall time) are counted too. Target: under 20% while streaming.
 *
 * The backend, the sandbox (with its WAV-making worker) and Chromium share this machine's cores;
 * the load average is printed with the result, since a loaded machine stretches every task.
 *
 * Run: node bench/activity-ui.bench.ts   (exit 0 on PASS, 1 on FAIL; SKIP when no Chromium)
 * Env: BENCH_ACTIVE (default 1000), BENCH_WINDOW_SECONDS (default 8), BENCH_TIME_SCALE (default 0.5).
 */
import { loadavg } from 'node:os';
import type { CDPSession, Page } from '@playwright/test';
import type { TaskChange } from '../src/shared/index.ts';
import { findChromium, launchChromium, NO_BROWSER_MESSAGE } from '../test/e2e/harness/chromium-location.ts';
import { ensureRendererBuilt } from '../test/e2e/harness/renderer-build.ts';
import { createStudioRig, type StudioRig } from '../test/e2e/harness/studio-rig.ts';
import { openView, waitForApp } from '../test/e2e/harness/studio-ui.ts';
import { pct } from '../test/e2e/harness/timing-stats.ts';
import { waitUntil } from '../test/support/wait-until.ts';

const ACTIVE = Number(process.env.BENCH_ACTIVE ?? 1_000);
const WINDOW_SECONDS = Number(process.env.BENCH_WINDOW_SECONDS ?? 8);
const TIME_SCALE = Number(process.env.BENCH_TIME_SCALE ?? 0.5);
const TARGET_BUSY = 0.2;
const FINAL = new Set(['saved', 'failed', 'cancelled', 'expired', 'uncertain']);

interface WindowResult {
  seconds: number;
  busy: number;
  script: number;
  layout: number;
  style: number;
  longTasks: number;
  longTaskMs: number;
  deliveries: number;
  changes: number;
  activeAtEnd: number;
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Starts collecting long tasks in the page (from now on). */
async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const win = globalThis as unknown as {
      __longTasks: number[];
      PerformanceObserver: new (
        cb: (list: { getEntries(): { duration: number }[] }) => void,
      ) => { observe(o: unknown): void };
    };
    win.__longTasks = [];
    new win.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) win.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

async function takeLongTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const win = globalThis as unknown as { __longTasks: number[] };
    const taken = win.__longTasks;
    win.__longTasks = [];
    return taken;
  });
}

async function measureWindow(
  page: Page,
  cdp: CDPSession,
  rig: StudioRig,
  seconds: number,
  events: { deliveries: number; changes: number },
): Promise<WindowResult> {
  await takeLongTasks(page);
  const before = await metrics(cdp);
  const from = { ...events };
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const after = await metrics(cdp);
  const wall = (performance.now() - started) / 1000;
  const longTasks = await takeLongTasks(page);
  const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) / wall;
  const counts = await rig.call('tasks.count', {
    states: ['queued', 'submitting', 'pending', 'staged', 'processing', 'completed', 'downloading'],
  });
  return {
    seconds: wall,
    busy: delta('TaskDuration'),
    script: delta('ScriptDuration'),
    layout: delta('LayoutDuration'),
    style: delta('RecalcStyleDuration'),
    longTasks: longTasks.length,
    longTaskMs: longTasks.reduce((a, b) => a + b, 0),
    deliveries: events.deliveries - from.deliveries,
    changes: events.changes - from.changes,
    activeAtEnd: counts.total,
  };
}

function report(name: string, r: WindowResult): void {
  console.log(
    `${name}: main thread busy ${pct(r.busy)} (script ${pct(r.script)}, layout ${pct(r.layout)}, style ${pct(r.style)}) over ${r.seconds.toFixed(1)} s; ` +
      `${r.longTasks} long tasks (${Math.round(r.longTaskMs)} ms); ${r.deliveries} deliveries, ${r.changes} task changes ` +
      `(${Math.round(r.changes / r.seconds)}/s) delivered; ${r.activeAtEnd} active at the end`,
  );
}

const songDraft = (i: number) => ({
  model: 'service/ace-step',
  taskType: 'txt2audio',
  title: `Stream ${i + 1}`,
  input: { style_prompt: `ambient loop ${i + 1}`, duration: 1 },
});

async function main(): Promise<number> {
  if (!findChromium()) {
    console.log(`SKIP  ${NO_BROWSER_MESSAGE}`);
    return 0;
  }
  const rendererDir = await ensureRendererBuilt();
  const browser = await launchChromium();
  const rig = await createStudioRig({
    rendererDir,
    service: 'service',
    timeScale: TIME_SCALE,
    maxActiveRemote: 50,
    sandbox: { concurrencyLimit: 100_000 },
    // The engine as the app runs it (polling from 1 s, 10 fetches per second), not the e2e tests' fast tuning.
    engineTuning: {},
  });
  let idle: WindowResult;
  let streaming: WindowResult;
  try {
    rig.backend.setNetworkOnline(false);
    const queueStarted = performance.now();
    let queued = 0;
    for (; queued < ACTIVE; queued++) await rig.call('tasks.queue', songDraft(queued));
    console.log(
      `queued ${ACTIVE} songs (offline) in ${((performance.now() - queueStarted) / 1000).toFixed(1)} s`,
    );

    // Every task that finishes is replaced, so that ACTIVE stay active while measuring.
    const events = { deliveries: 0, changes: 0 };
    const finished = new Set<string>();
    let refill = Promise.resolve();
    rig.backend.on('tasks.changed', (changes: TaskChange[]) => {
      events.deliveries += 1;
      events.changes += changes.length;
      for (const change of changes) {
        if (!change.task || !FINAL.has(change.task.state) || finished.has(change.taskId)) continue;
        finished.add(change.taskId);
        const i = queued++;
        refill = refill.then(() => rig.call('tasks.queue', songDraft(i)).then(() => undefined));
      }
    });

    const view = await rig.openPage(browser, { reducedMotion: 'no-preference' });
    const { page } = view;
    await waitForApp(page);
    await openView(page, 'activity');
    await page.getByTestId('activity-row').first().waitFor();
    await waitUntil(
      async () => (await page.getByTestId('active-count').textContent())?.includes(String(ACTIVE)),
      `the nav to count ${ACTIVE} active`,
      30_000,
    );
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await watchLongTasks(page);
    await page.waitForTimeout(1_000);
    console.log(
      `load average before: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );

    idle = await measureWindow(page, cdp, rig, Math.min(5, WINDOW_SECONDS), events);
    report('idle (1,000 tasks waiting, no updates)', idle);

    rig.backend.setNetworkOnline(true);
    await waitUntil(() => events.changes > 500, 'updates to start streaming', 30_000);
    await page.waitForTimeout(1_000);
    streaming = await measureWindow(page, cdp, rig, WINDOW_SECONDS, events);
    report(`streaming (${ACTIVE.toLocaleString('en')} active tasks)`, streaming);
    console.log(
      `load average after: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    if (view.problems.length > 0) console.log(`page problems:\n  ${view.problems.slice(0, 10).join('\n  ')}`);
    rig.backend.setNetworkOnline(false);
    await refill.catch(() => undefined);
  } finally {
    await rig.close();
    await browser.close();
  }

  console.log(
    `\nratio streaming / idle busy share: ${idle.busy > 0 ? (streaming.busy / idle.busy).toFixed(2) : 'n/a'}x`,
  );
  const ok = streaming.busy < TARGET_BUSY && streaming.changes > 0;
  console.log(
    `${ok ? 'PASS' : 'FAIL'}  renderer main thread busy while ${ACTIVE.toLocaleString('en')} tasks stream updates < ${pct(TARGET_BUSY)}: ${pct(streaming.busy)}`,
  );
  return ok ? 0 : 1;
}

process.exitCode = await main();
