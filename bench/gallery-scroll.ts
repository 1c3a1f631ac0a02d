/**
 * Scrolling the library's gallery at a fixed speed inside the page, timing each frame: shared by
 * the library benchmarks (library-ui, video-3d-gallery).
 */
import type { Page } from '@playwright/test';
import type { PageWindow } from '../test/e2e/harness/page-dom.ts';

export interface ScrollResult {
  /** Per frame: from the frame's start (the rAF timestamp) to the end of its rendering work. */
  work: number[];
  /** Intervals between requestAnimationFrame callbacks. */
  intervals: number[];
  wallMs: number;
  scrolledPx: number;
}

/**
 * Scrolls the gallery at a fixed speed for `seconds` (the position is set each frame from the
 * elapsed time). For each frame it records the rAF interval and the frame's main-thread work:
 * from the frame's start (the timestamp rAF callbacks get, taken before the frame's scroll
 * events, React renders and rAF callbacks run) to a message posted from the rAF callback, which
 * runs right after that frame's style, layout, paint and commit.
 */
export function scrollGallery(page: Page, seconds: number, pxPerSecond: number) {
  return page.evaluate(
    ([seconds, pxPerSecond]) =>
      new Promise<ScrollResult>((resolve, reject) => {
        const win = globalThis as unknown as PageWindow & {
          MessageChannel: new () => {
            port1: { onmessage: (() => void) | null };
            port2: { postMessage(value: unknown): void };
          };
        };
        const scroller = win.document.querySelector('[data-testid="gallery"]');
        if (!scroller) {
          reject(new Error('no [data-testid="gallery"]'));
          return;
        }
        const work: number[] = [];
        const intervals: number[] = [];
        const frameStarts: number[] = [];
        const channel = new win.MessageChannel();
        channel.port1.onmessage = () => {
          const started = frameStarts.shift();
          if (started !== undefined) work.push(performance.now() - started);
        };
        const from = scroller.scrollTop;
        let position = from;
        let first = 0;
        let last = 0;
        const frame = (now: number) => {
          if (first === 0) first = now;
          else intervals.push(now - last);
          last = now;
          frameStarts.push(now);
          channel.port2.postMessage(0);
          position += (pxPerSecond * (intervals[intervals.length - 1] ?? 0)) / 1000;
          scroller.scrollTop = position;
          if (now - first < seconds * 1000) win.requestAnimationFrame(frame);
          else
            setTimeout(
              () => resolve({ work, intervals, wallMs: now - first, scrolledPx: scroller.scrollTop - from }),
              50,
            );
        };
        win.requestAnimationFrame(frame);
      }),
    [seconds, pxPerSecond] as const,
  );
}
