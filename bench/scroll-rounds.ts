/**
 * Scrolling the library gallery in rounds, with what each round cost beside its frame times:
 * the browser's CPU time per frame (renderer and the rest, from CDP SystemInfo.getProcessInfo:
 * CPU time, so a loaded machine's waiting is not in it, unlike a frame's wall time), the
 * backend's CPU (this process), the gallery pages loaded over the bridge, the DOM's size, and the
 * machine's dirty page cache (disk writes still to do). Used by bench/library-ui.
 *
 * The machine's pending disk writes are printed with each round, and flushed before the rounds
 * (`flushDiskWrites`): a template just migrated writes 1.7 GB, which the kernel writes back over
 * the next half minute on the same two cores the browser draws with.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Browser, CDPSession } from '@playwright/test';
import type { PageWindow } from '../test/e2e/harness/page-dom.ts';
import type { StudioPage } from '../test/e2e/harness/studio-rig.ts';
import { waitUntil } from '../test/support/wait-until.ts';
import { type ScrollResult, scrollGallery } from './gallery-scroll.ts';

/** The kernel's dirty and under-writeback page cache in MB (null where there is no /proc/meminfo). */
export function pendingDiskWritesMb(): number | null {
  if (!existsSync('/proc/meminfo')) return null;
  const info = readFileSync('/proc/meminfo', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return (kb('Dirty') + kb('Writeback')) / 1024;
}

/** Writes every dirty page of the machine to disk (`sync`) and says how long it took. */
export function flushDiskWrites(): { ms: number; beforeMb: number | null } {
  const beforeMb = pendingDiskWritesMb();
  const started = performance.now();
  spawnSync('sync', { stdio: 'ignore' });
  return { ms: performance.now() - started, beforeMb };
}

/** CPU seconds used so far by a browser's processes: its renderers, and the rest (browser, GPU/viz, network). */
async function browserCpu(session: CDPSession): Promise<{ renderer: number; other: number }> {
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo' as never)) as {
    processInfo: { type: string; cpuTime: number }[];
  };
  let renderer = 0;
  let other = 0;
  for (const p of processInfo) {
    if (p.type === 'renderer') renderer += p.cpuTime;
    else other += p.cpuTime;
  }
  return { renderer, other };
}

/** A gallery page asked for over the bridge (the activity's lists name states; the gallery's does not). */
function isGalleryPage(call: StudioPage['bridge']['calls'][number]): boolean {
  return call.name === 'tasks.list' && call.ok && !Object.hasOwn(call.args as object, 'states');
}

/** Tasks the gallery loaded so far on this page. */
export function galleryTasksLoaded(view: StudioPage): number {
  return view.bridge.calls
    .filter(isGalleryPage)
    .reduce((sum, call) => sum + ((call.value as { items: unknown[] }).items?.length ?? 0), 0);
}

export interface RoundCost {
  scroll: ScrollResult;
  /** Browser CPU ms per frame: renderer processes, and the rest. */
  rendererCpuPerFrame: number;
  otherCpuPerFrame: number;
  /** This process's CPU ms over the round (the backend answering the page). */
  backendCpuMs: number;
  pagesLoaded: number;
  /** The gallery's page requests' time in the backend (ms, summed). */
  pageMs: number;
  domNodes: number;
  cards: number;
  /** The gallery's scrollable height at the end, px. */
  scrollHeight: number;
  dirtyMbAtStart: number | null;
}

/** One gallery being scrolled: its browser's CDP session and page. */
export interface ScrollTarget {
  view: StudioPage;
  session: CDPSession;
}

export async function scrollTarget(browser: Browser, view: StudioPage): Promise<ScrollTarget> {
  return { view, session: await browser.newBrowserCDPSession() };
}

/** Scrolls `seconds` at `pxPerSecond` from where the gallery is, and says what it cost. */
export async function scrollRound(
  target: ScrollTarget,
  seconds: number,
  pxPerSecond: number,
): Promise<RoundCost> {
  const { view, session } = target;
  const callsBefore = view.bridge.calls.length;
  const dirtyMbAtStart = pendingDiskWritesMb();
  const cpu0 = await browserCpu(session);
  const own0 = process.cpuUsage();
  const scroll = await scrollGallery(view.page, seconds, pxPerSecond);
  const own = process.cpuUsage(own0);
  const cpu1 = await browserCpu(session);
  const frames = Math.max(1, scroll.work.length);
  const pages = view.bridge.calls.slice(callsBefore).filter(isGalleryPage);
  const dom = await view.page.evaluate(() => {
    const doc = (globalThis as unknown as PageWindow).document;
    return {
      nodes: doc.querySelectorAll('*').length,
      cards: doc.querySelectorAll('[data-testid="task-card"]').length,
      scrollHeight: doc.querySelector('[data-testid="gallery"]')?.scrollHeight ?? 0,
    };
  });
  return {
    scroll,
    rendererCpuPerFrame: ((cpu1.renderer - cpu0.renderer) * 1000) / frames,
    otherCpuPerFrame: ((cpu1.other - cpu0.other) * 1000) / frames,
    backendCpuMs: (own.user + own.system) / 1000,
    pagesLoaded: pages.length,
    pageMs: pages.reduce((sum, call) => sum + call.ms, 0),
    domNodes: dom.nodes,
    cards: dom.cards,
    scrollHeight: dom.scrollHeight,
    dirtyMbAtStart,
  };
}

/**
 * Loads gallery pages until `tasks` are loaded, as a user scrolling to the bottom again and
 * again would, then leaves the gallery a little above the loaded end (so the next round scrolls
 * over loaded rows into new pages).
 */
export async function loadDeep(view: StudioPage, tasks: number): Promise<{ loaded: number; ms: number }> {
  const started = performance.now();
  while (galleryTasksLoaded(view) < tasks) {
    const before = galleryTasksLoaded(view);
    await view.page.evaluate(() => {
      const doc = (globalThis as unknown as PageWindow).document;
      const gallery = doc.querySelector('[data-testid="gallery"]');
      if (gallery) gallery.scrollTop = gallery.scrollHeight;
    });
    await waitUntil(() => galleryTasksLoaded(view) > before, 'the next gallery page', 15_000, 10);
  }
  await view.page.evaluate(() => {
    const doc = (globalThis as unknown as PageWindow).document;
    const gallery = doc.querySelector('[data-testid="gallery"]');
    if (gallery) gallery.scrollTop = Math.max(0, gallery.scrollHeight - 20_000);
  });
  return { loaded: galleryTasksLoaded(view), ms: performance.now() - started };
}
