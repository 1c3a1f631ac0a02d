/**
 * The library view in Chromium with 1,000,000 tasks, against the same page with 1,000 tasks
 * measured in the same run:
 * - first page: time from the click on "Library" until the first page of cards is on screen
 *   (measured inside the page from the click to the frame after the visible cards stopped
 *   changing; the cards' thumbnails are timed too, for information). Cold: the first navigation
 *   of a fresh page (3 pages); warm: back from Compose (4 times). The medians are judged (a
 *   single run on a shared 2-core machine is noisy); every run is printed.
 * - scrolling: the gallery scrolled programmatically and smoothly (a fixed speed in px/s, set
 *   each frame from the elapsed time) over many rows for a few seconds, loading the next pages as
 *   the app does, in rounds that alternate between the two sizes (both open at once, each in a
 *   browser of its own), so a change of this shared machine's load falls on both. Per frame, from
 *   requestAnimationFrame: the frame's main-thread work, from the frame's start (the rAF
 *   timestamp, taken before that frame's scroll events, React renders and rAF callbacks) to a
 *   message posted from the rAF callback, which runs right after the frame's style, layout, paint
 *   and commit; and the interval between rAF callbacks, to count the frames shown on time at
 *   60 Hz (a frame whose work overruns makes the next interval skip a vsync). Per round: the
 *   browser's CPU time per frame (renderer processes and the rest, CDP SystemInfo: CPU time, so
 *   the waits of a loaded machine are not in it, where a frame's wall time is mostly waiting),
 *   the backend's CPU, gallery pages loaded, DOM nodes and cards, the scroll height
 *   (bench/scroll-rounds.ts). Then a round deep in the million: 12,000 tasks loaded first.
 * Targets: first page <= 1 s (cold and warm medians); a million scrolls as a thousand (renderer
 * CPU per frame within 1.15x, frames under 16 ms within 3 points; deep in the million within 1.15x
 * of its first rounds); 99% of scroll frames under 16 ms of work, and 99% of frames shown on time
 * (issue 22). On a loaded machine the 1,000-task page misses the last one too: the ratios are
 * the figures to read there, and a single 5 s round at load 8-12 ranged from 37% to 96% of frames
 * under 16 ms within one run: hence the rounds and the CPU time.
 *
 * Frame pacing: headless Chromium runs frames at 60 Hz (rAF intervals of 16.7 ms even on an empty
 * page), so an interval alone cannot be "under 16 ms"; hence the work measure above. No
 * frame-rate flags are used: `--disable-frame-rate-limit --disable-gpu-vsync` do not lift the
 * pacing in new headless mode, and adding `--run-all-compositor-stages-before-draw` (which does)
 * serialises software raster into every frame and made the numbers depend mostly on the load of
 * this shared machine.
 *
 * The tasks are inserted straight into the library's SQLite through the library store, in
 * transactions of 10,000 (a template is kept in out/bench-cache/ for later runs).
 *
 * Run: node bench/library-ui.bench.ts   (exit 0 on PASS, 1 on FAIL; SKIP when no Chromium)
 * Env: BENCH_TASKS (default 1000000), BENCH_SCROLL_SECONDS (default 5), BENCH_SCROLL_ROUNDS
 * (default 3), BENCH_DEEP_TASKS (default 12000; 0: no deep round).
 */
import { loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import { findChromium, launchChromium, NO_BROWSER_MESSAGE } from '../test/e2e/harness/chromium-location.ts';
import type { PageWindow } from '../test/e2e/harness/page-dom.ts';
import { ensureRendererBuilt } from '../test/e2e/harness/renderer-build.ts';
import { copyFilledLibrary } from '../test/e2e/harness/saved-task-fill.ts';
import { createStudioRig } from '../test/e2e/harness/studio-rig.ts';
import {
  type FrameSummary,
  median,
  ms,
  pct,
  ratio,
  summariseFrames,
} from '../test/e2e/harness/timing-stats.ts';
import {
  flushDiskWrites,
  loadDeep,
  type RoundCost,
  type ScrollTarget,
  scrollRound,
  scrollTarget,
} from './scroll-rounds.ts';

const BIG = Number(process.env.BENCH_TASKS ?? 1_000_000);
const BASELINE = 1_000;
const COLD_RUNS = 3;
const WARM_RUNS = 4;
const SCROLL_SECONDS = Number(process.env.BENCH_SCROLL_SECONDS ?? 5);
const SCROLL_PX_PER_SECOND = 3_000;
const FRAME_BUDGET_MS = 16;
const VSYNC_MS = 1000 / 60;
const ROUNDS = Number(process.env.BENCH_SCROLL_ROUNDS ?? 3);
const DEEP_TASKS = Number(process.env.BENCH_DEEP_TASKS ?? 12_000);
const TARGET = {
  firstPageMs: 1_000,
  framesUnderBudget: 0.99,
  /** A million against a thousand (and deep against the top): the same work per frame, within noise. */
  cpuRatio: 1.15,
  /** Share of frames under budget a million may lose against a thousand in the same run (noise). */
  underBudgetSlack: 0.03,
} as const;

interface FirstPage {
  /** Click → the frame after the visible cards stopped changing. */
  cardsMs: number;
  /** Click → every visible card's thumbnail decoded (NaN when there were none). */
  thumbsMs: number;
  cards: number;
}

interface SizeResult {
  tasks: number;
  total: string;
  cold: FirstPage[];
  warm: FirstPage[];
  /** The scroll rounds, in the order run (alternating with the other size). */
  rounds: RoundCost[];
}

/** Frames of several rounds taken together. */
interface Pooled {
  /** Per-frame main-thread work. */
  frames: FrameSummary;
  /** rAF intervals. */
  intervals: FrameSummary;
  /** Frames shown on time: intervals under 1.5 vsyncs, over the vsyncs the window held. */
  onTime: number;
  /** Browser CPU ms per frame (mean over the rounds' frames): renderer, and the rest. */
  rendererCpu: number;
  otherCpu: number;
}

function pool(rounds: readonly RoundCost[]): Pooled {
  const work = rounds.flatMap((r) => r.scroll.work);
  const intervals = rounds.flatMap((r) => r.scroll.intervals);
  const vsyncs = rounds.reduce((sum, r) => sum + Math.max(1, Math.round(r.scroll.wallMs / VSYNC_MS)), 0);
  const perFrame = (pick: (r: RoundCost) => number) =>
    rounds.reduce((sum, r) => sum + pick(r) * r.scroll.work.length, 0) / Math.max(1, work.length);
  return {
    frames: summariseFrames(work, FRAME_BUDGET_MS),
    intervals: summariseFrames(intervals, VSYNC_MS * 1.5),
    onTime: intervals.filter((i) => i < VSYNC_MS * 1.5).length / Math.max(1, vsyncs),
    rendererCpu: perFrame((r) => r.rendererCpuPerFrame),
    otherCpu: perFrame((r) => r.otherCpuPerFrame),
  };
}

/** Clicks a nav button inside the page and times the first page of cards (see the header). */
function timeFirstPage(page: Page): Promise<FirstPage> {
  return page.evaluate(
    () =>
      new Promise<FirstPage>((resolve, reject) => {
        const win = globalThis as unknown as PageWindow;
        const doc = win.document;
        const visibleCards = () =>
          Array.from(doc.querySelectorAll('[data-testid="task-card"]')).filter((card) => {
            const r = card.getBoundingClientRect();
            return (
              r.width > 0 &&
              r.height > 0 &&
              r.bottom > 0 &&
              r.top < win.innerHeight &&
              r.right > 0 &&
              r.left < win.innerWidth
            );
          });
        const nav = doc.querySelector('[data-testid="nav-library"]');
        if (!nav) {
          reject(new Error('no [data-testid="nav-library"]'));
          return;
        }
        const started = performance.now();
        nav.click();
        let lastCount = 0;
        let firstAtCount = 0;
        let stableFrames = 0;
        let cardsMs = Number.NaN;
        const frame = () => {
          const now = performance.now();
          if (now - started > 15_000) {
            reject(new Error(`no cards after 15 s (saw ${lastCount})`));
            return;
          }
          const cards = visibleCards();
          if (Number.isNaN(cardsMs)) {
            if (cards.length !== lastCount) {
              lastCount = cards.length;
              firstAtCount = now;
              stableFrames = 0;
            } else if (cards.length > 0 && ++stableFrames >= 3) {
              // The count reached its final value at `firstAtCount`; that frame was painted at the next one.
              cardsMs = firstAtCount - started;
            }
          }
          if (!Number.isNaN(cardsMs)) {
            const images = cards.map((card) => card.querySelector('img')).filter((img) => img !== null);
            if (images.every((img) => img.complete && (img.naturalWidth ?? 0) > 0)) {
              resolve({
                cardsMs,
                thumbsMs: images.length > 0 ? now - started : Number.NaN,
                cards: cards.length,
              });
              return;
            }
          }
          win.requestAnimationFrame(frame);
        };
        win.requestAnimationFrame(frame);
      }),
  );
}

/** One size open in a browser of its own (the two sizes share no caches or leftovers). */
interface OpenSize {
  tasks: number;
  total: string;
  cold: FirstPage[];
  warm: FirstPage[];
  target: ScrollTarget;
  close(): Promise<void>;
}

/**
 * Opens a size: its library copied and written to disk, the first page timed cold and warm,
 * and the page left on the library for the scroll rounds.
 */
async function openSize(rendererDir: string, tasks: number): Promise<OpenSize> {
  const browser = await launchChromium();
  const rig = await createStudioRig({
    rendererDir,
    service: 'service',
    prepareLibrary: async (libraryDir) => {
      const { fromCache } = await copyFilledLibrary(libraryDir, tasks);
      const flushed = flushDiskWrites();
      console.log(
        `library: ${tasks.toLocaleString('en')} tasks ${fromCache ? 'copied from the cached template' : 'filled'}; ${Math.round(flushed.beforeMb ?? 0)} MB of disk writes flushed in ${ms(flushed.ms)}`,
      );
    },
  });
  try {
    // Cold: the first navigation of a fresh page (new context, nothing cached in the renderer),
    // several times, since one cold run on a shared 2-core machine is noisy.
    const cold: FirstPage[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const fresh = await rig.openPage(browser, { reducedMotion: 'no-preference' });
      await fresh.page.getByTestId('nav-library').waitFor({ timeout: 20_000 });
      // Let the app finish starting (settings, status, activity) before timing a navigation.
      await fresh.page.waitForTimeout(500);
      cold.push(await timeFirstPage(fresh.page));
      await fresh.close();
    }
    const view = await rig.openPage(browser, { reducedMotion: 'no-preference' });
    const { page } = view;
    await page.getByTestId('nav-library').waitFor({ timeout: 20_000 });
    await page.waitForTimeout(500);
    await timeFirstPage(page);
    const total = (await page.getByTestId('library-total').textContent()) ?? '';
    const warm: FirstPage[] = [];
    for (let i = 0; i < WARM_RUNS; i++) {
      await page.getByTestId('nav-compose').click();
      await page.waitForTimeout(200);
      warm.push(await timeFirstPage(page));
    }
    return {
      tasks,
      total,
      cold,
      warm,
      target: await scrollTarget(browser, view),
      async close() {
        if (view.problems.length > 0) console.log(`page problems:\n  ${view.problems.join('\n  ')}`);
        await rig.close();
        await browser.close();
      },
    };
  } catch (err) {
    await rig.close();
    await browser.close();
    throw err;
  }
}

function roundLine(label: string, r: RoundCost): string {
  const f = summariseFrames(r.scroll.work, FRAME_BUDGET_MS);
  return `    ${label}: ${Math.round(r.scroll.scrolledPx)} px, ${f.frames} frames, under ${FRAME_BUDGET_MS} ms ${pct(f.underBudget)}, work p95 ${ms(f.p95)}; CPU per frame: renderer ${ms(r.rendererCpuPerFrame)}, rest of the browser ${ms(r.otherCpuPerFrame)}; backend ${Math.round(r.backendCpuMs)} ms CPU; ${r.pagesLoaded} page(s) loaded (${Math.round(r.pageMs)} ms); ${r.cards} cards, ${r.domNodes} DOM nodes, scroll height ${r.scrollHeight} px; disk writes pending ${Math.round(r.dirtyMbAtStart ?? 0)} MB`;
}

function report(r: SizeResult): void {
  const warmCards = r.warm.map((w) => w.cardsMs);
  const coldCards = r.cold.map((c) => c.cardsMs);
  const p = pool(r.rounds);
  const scrolled = r.rounds.reduce((sum, x) => sum + x.scroll.scrolledPx, 0);
  console.log(`\n${r.tasks.toLocaleString('en')} tasks (${r.total.trim()})`);
  console.log(
    `  first page cold (fresh page, ${r.cold.length} runs): cards median ${ms(median(coldCards))} [${coldCards.map((c) => Math.round(c)).join(', ')} ms] (${r.cold[0]?.cards} visible); thumbnails median ${ms(median(r.cold.map((c) => c.thumbsMs)))}`,
  );
  console.log(
    `  first page warm: cards median ${ms(median(warmCards))}, max ${ms(Math.max(...warmCards))}; thumbnails median ${ms(median(r.warm.map((w) => w.thumbsMs)))}`,
  );
  console.log(
    `  scroll ${r.rounds.length} x ${SCROLL_SECONDS} s at ${SCROLL_PX_PER_SECOND} px/s (rounds alternating with the other size): ${Math.round(scrolled)} px, ${p.frames.frames} frames`,
  );
  r.rounds.forEach((round, i) => {
    console.log(roundLine(`round ${i + 1}`, round));
  });
  console.log(
    `    frame work: p50 ${ms(p.frames.p50)}, p95 ${ms(p.frames.p95)}, p99 ${ms(p.frames.p99)}, max ${ms(p.frames.max)}; under ${FRAME_BUDGET_MS} ms: ${pct(p.frames.underBudget)}`,
  );
  console.log(
    `    rAF intervals: p50 ${ms(p.intervals.p50)}, p95 ${ms(p.intervals.p95)}, max ${ms(p.intervals.max)}; frames on time (60 Hz): ${pct(p.onTime)}`,
  );
  console.log(
    `    browser CPU per frame: renderer ${ms(p.rendererCpu)}, rest of the browser ${ms(p.otherCpu)}`,
  );
}

async function main(): Promise<number> {
  if (!findChromium()) {
    console.log(`SKIP  ${NO_BROWSER_MESSAGE}`);
    return 0;
  }
  const rendererDir = await ensureRendererBuilt();
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`load average before: ${load()}`);
  const sizes = [await openSize(rendererDir, BASELINE), await openSize(rendererDir, BIG)];
  const [small, large] = sizes as [OpenSize, OpenSize];
  const results = new Map<OpenSize, RoundCost[]>(sizes.map((s) => [s, []]));
  let deep: { loaded: number; ms: number; round: RoundCost } | null = null;
  try {
    const flushed = flushDiskWrites();
    console.log(
      `before scrolling: ${Math.round(flushed.beforeMb ?? 0)} MB of disk writes flushed in ${ms(flushed.ms)}`,
    );
    // Rounds alternate between the sizes (and which goes first), so a change of the machine's
    // load falls on both.
    for (let round = 0; round < ROUNDS; round++) {
      for (const size of round % 2 === 0 ? [small, large] : [large, small]) {
        await size.target.view.page.waitForTimeout(300);
        results.get(size)?.push(await scrollRound(size.target, SCROLL_SECONDS, SCROLL_PX_PER_SECOND));
      }
    }
    if (DEEP_TASKS > 0) {
      const loaded = await loadDeep(large.target.view, DEEP_TASKS);
      await large.target.view.page.waitForTimeout(500);
      deep = { ...loaded, round: await scrollRound(large.target, SCROLL_SECONDS, SCROLL_PX_PER_SECOND) };
    }
  } finally {
    for (const size of sizes) await size.close();
  }
  const resultOf = (s: OpenSize): SizeResult => ({ ...s, rounds: results.get(s) ?? [] });
  const baseline = resultOf(small);
  const big = resultOf(large);
  report(baseline);
  report(big);
  if (deep) {
    console.log(
      `  deep in the million: ${deep.loaded.toLocaleString('en')} tasks loaded (in ${ms(deep.ms)}), then scrolled on`,
    );
    console.log(roundLine('deep round', deep.round));
  }
  console.log(`load average after: ${load()}`);

  const coldMedian = (r: SizeResult) => median(r.cold.map((c) => c.cardsMs));
  const warmMedian = (r: SizeResult) => median(r.warm.map((w) => w.cardsMs));
  const bigFirst = Math.max(coldMedian(big), warmMedian(big));
  const b = pool(baseline.rounds);
  const m = pool(big.rounds);
  const deepCpu = deep ? deep.round.rendererCpuPerFrame : Number.NaN;
  console.log(`\nratios ${BIG.toLocaleString('en')} / ${BASELINE.toLocaleString('en')}:`);
  console.log(
    `  first page cold median ${ratio(coldMedian(big), coldMedian(baseline))}, warm median ${ratio(warmMedian(big), warmMedian(baseline))}`,
  );
  console.log(
    `  scroll: renderer CPU per frame ${ratio(m.rendererCpu, b.rendererCpu)} (rest of the browser ${ratio(m.otherCpu, b.otherCpu)}); frame work p50 ${ratio(m.frames.p50, b.frames.p50)}, p95 ${ratio(m.frames.p95, b.frames.p95)}, p99 ${ratio(m.frames.p99, b.frames.p99)}; frames under ${FRAME_BUDGET_MS} ms ${pct(m.frames.underBudget)} vs ${pct(b.frames.underBudget)}`,
  );
  if (deep)
    console.log(
      `  deep (${deep.loaded.toLocaleString('en')} loaded) / the million's first rounds: renderer CPU per frame ${ratio(deepCpu, m.rendererCpu)}`,
    );

  const checks = [
    {
      name: `first page of ${BIG.toLocaleString('en')} tasks (median cold and median warm) <= ${TARGET.firstPageMs} ms`,
      ok: bigFirst <= TARGET.firstPageMs,
      value: `cold ${ms(coldMedian(big))}, warm ${ms(warmMedian(big))}`,
    },
    {
      name: `a million scrolls as a thousand: renderer CPU per frame <= ${TARGET.cpuRatio}x, frames under ${FRAME_BUDGET_MS} ms within ${TARGET.underBudgetSlack * 100} points`,
      ok:
        m.rendererCpu <= b.rendererCpu * TARGET.cpuRatio &&
        m.frames.underBudget >= b.frames.underBudget - TARGET.underBudgetSlack,
      value: `${ratio(m.rendererCpu, b.rendererCpu)}; ${pct(m.frames.underBudget)} vs ${pct(b.frames.underBudget)}`,
    },
    ...(deep
      ? [
          {
            name: `deep in the million (${deep.loaded.toLocaleString('en')} loaded): renderer CPU per frame <= ${TARGET.cpuRatio}x the first rounds'`,
            ok: deepCpu <= m.rendererCpu * TARGET.cpuRatio,
            value: ratio(deepCpu, m.rendererCpu),
          },
        ]
      : []),
    {
      name: `scroll frames under ${FRAME_BUDGET_MS} ms (and shown on time) >= ${pct(TARGET.framesUnderBudget)}`,
      ok: m.frames.underBudget >= TARGET.framesUnderBudget && m.onTime >= TARGET.framesUnderBudget,
      value: `${pct(m.frames.underBudget)} under ${FRAME_BUDGET_MS} ms, ${pct(m.onTime)} on time`,
    },
  ];
  console.log('');
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.value}`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

process.exitCode = await main();
