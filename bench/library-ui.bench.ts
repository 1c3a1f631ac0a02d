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
 *   the app does. Per frame, from requestAnimationFrame: the frame's main-thread work, from the
 *   frame's start (the rAF timestamp, taken before that frame's scroll events, React renders and
 *   rAF callbacks) to a message posted from the rAF callback, which runs right after the frame's
 *   style, layout, paint and commit; and the interval between rAF callbacks, to count the frames
 *   shown on time at 60 Hz (a frame whose work overruns makes the next interval skip a vsync).
 * Targets: first page <= 1 s (cold and warm medians); 99% of scroll frames under 16 ms of work,
 * and 99% of frames shown on time (issue 22: a million tasks scroll as a thousand do). On a loaded
 * machine the 1,000-task page misses them too: the ratio of the two is the figure to read.
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
 * Env: BENCH_TASKS (default 1000000), BENCH_SCROLL_SECONDS (default 5).
 */
import { loadavg } from 'node:os';
import type { Browser, Page } from '@playwright/test';
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
import { scrollGallery } from './gallery-scroll.ts';

const BIG = Number(process.env.BENCH_TASKS ?? 1_000_000);
const BASELINE = 1_000;
const COLD_RUNS = 3;
const WARM_RUNS = 4;
const SCROLL_SECONDS = Number(process.env.BENCH_SCROLL_SECONDS ?? 5);
const SCROLL_PX_PER_SECOND = 3_000;
const FRAME_BUDGET_MS = 16;
const VSYNC_MS = 1000 / 60;
const TARGET = { firstPageMs: 1_000, framesUnderBudget: 0.99 } as const;

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
  /** Per-frame main-thread work. */
  frames: FrameSummary;
  /** rAF intervals. */
  intervals: FrameSummary;
  /** Frames shown on time: intervals under 1.5 vsyncs, over the vsyncs the window held. */
  onTime: number;
  scrolledPx: number;
  rowsLoaded: number;
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

/** One size, in a browser of its own (so the two sizes do not share caches or leftovers). */
async function measureSize(rendererDir: string, tasks: number): Promise<SizeResult> {
  const browser = await launchChromium();
  try {
    return await measureSizeIn(browser, rendererDir, tasks);
  } finally {
    await browser.close();
  }
}

async function measureSizeIn(browser: Browser, rendererDir: string, tasks: number): Promise<SizeResult> {
  const rig = await createStudioRig({
    rendererDir,
    service: 'service',
    prepareLibrary: async (libraryDir) => {
      const { fromCache } = await copyFilledLibrary(libraryDir, tasks);
      console.log(
        `library: ${tasks.toLocaleString('en')} tasks ${fromCache ? 'copied from the cached template' : 'filled'}`,
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
      if (i < COLD_RUNS - 1) await fresh.close();
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
    await page.waitForTimeout(300);
    const scrolled = await scrollGallery(page, SCROLL_SECONDS, SCROLL_PX_PER_SECOND);
    const rowsLoaded = (await page.getByTestId('library-total').textContent()) ?? '';
    if (view.problems.length > 0) console.log(`page problems:\n  ${view.problems.join('\n  ')}`);
    return {
      tasks,
      total,
      cold,
      warm,
      frames: summariseFrames(scrolled.work, FRAME_BUDGET_MS),
      intervals: summariseFrames(scrolled.intervals, VSYNC_MS * 1.5),
      onTime:
        scrolled.intervals.filter((i) => i < VSYNC_MS * 1.5).length /
        Math.max(1, Math.round(scrolled.wallMs / VSYNC_MS)),
      scrolledPx: scrolled.scrolledPx,
      rowsLoaded: Number.parseInt(/([\d,]+) loaded/.exec(rowsLoaded)?.[1]?.replace(/,/g, '') ?? 'NaN', 10),
    };
  } finally {
    await rig.close();
  }
}

function report(r: SizeResult): void {
  const warmCards = r.warm.map((w) => w.cardsMs);
  const coldCards = r.cold.map((c) => c.cardsMs);
  console.log(`\n${r.tasks.toLocaleString('en')} tasks (${r.total.trim()})`);
  console.log(
    `  first page cold (fresh page, ${r.cold.length} runs): cards median ${ms(median(coldCards))} [${coldCards.map((c) => Math.round(c)).join(', ')} ms] (${r.cold[0]?.cards} visible); thumbnails median ${ms(median(r.cold.map((c) => c.thumbsMs)))}`,
  );
  console.log(
    `  first page warm: cards median ${ms(median(warmCards))}, max ${ms(Math.max(...warmCards))}; thumbnails median ${ms(median(r.warm.map((w) => w.thumbsMs)))}`,
  );
  console.log(
    `  scroll ${SCROLL_SECONDS} s at ${SCROLL_PX_PER_SECOND} px/s: ${Math.round(r.scrolledPx)} px${Number.isNaN(r.rowsLoaded) ? '' : ` (${r.rowsLoaded.toLocaleString('en')} tasks loaded by then)`}, ${r.frames.frames} frames`,
  );
  console.log(
    `    frame work: p50 ${ms(r.frames.p50)}, p95 ${ms(r.frames.p95)}, p99 ${ms(r.frames.p99)}, max ${ms(r.frames.max)}; under ${FRAME_BUDGET_MS} ms: ${pct(r.frames.underBudget)}`,
  );
  console.log(
    `    rAF intervals: p50 ${ms(r.intervals.p50)}, p95 ${ms(r.intervals.p95)}, max ${ms(r.intervals.max)}; frames on time (60 Hz): ${pct(r.onTime)}`,
  );
}

async function main(): Promise<number> {
  if (!findChromium()) {
    console.log(`SKIP  ${NO_BROWSER_MESSAGE}`);
    return 0;
  }
  const rendererDir = await ensureRendererBuilt();
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const baseline = await measureSize(rendererDir, BASELINE);
  report(baseline);
  const big = await measureSize(rendererDir, BIG);
  report(big);
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const coldMedian = (r: SizeResult) => median(r.cold.map((c) => c.cardsMs));
  const warmMedian = (r: SizeResult) => median(r.warm.map((w) => w.cardsMs));
  const bigFirst = Math.max(coldMedian(big), warmMedian(big));
  console.log(`\nratios ${BIG.toLocaleString('en')} / ${BASELINE.toLocaleString('en')}:`);
  console.log(
    `  first page cold median ${ratio(coldMedian(big), coldMedian(baseline))}, warm median ${ratio(warmMedian(big), warmMedian(baseline))}`,
  );
  console.log(
    `  scroll frame work p95 ${ratio(big.frames.p95, baseline.frames.p95)}, p99 ${ratio(big.frames.p99, baseline.frames.p99)}; frames under ${FRAME_BUDGET_MS} ms ${pct(big.frames.underBudget)} vs ${pct(baseline.frames.underBudget)}`,
  );

  const checks = [
    {
      name: `first page of ${BIG.toLocaleString('en')} tasks (median cold and median warm) <= ${TARGET.firstPageMs} ms`,
      ok: bigFirst <= TARGET.firstPageMs,
      value: `cold ${ms(coldMedian(big))}, warm ${ms(warmMedian(big))}`,
    },
    {
      name: `scroll frames under ${FRAME_BUDGET_MS} ms (and shown on time) >= ${pct(TARGET.framesUnderBudget)}`,
      ok: big.frames.underBudget >= TARGET.framesUnderBudget && big.onTime >= TARGET.framesUnderBudget,
      value: `${pct(big.frames.underBudget)} under ${FRAME_BUDGET_MS} ms, ${pct(big.onTime)} on time`,
    },
  ];
  console.log('');
  for (const c of checks) console.log(`${c.ok ? 'PASS' : 'FAIL'}  ${c.name}: ${c.value}`);
  return checks.every((c) => c.ok) ? 0 : 1;
}

process.exitCode = await main();
