/**
 * Just enough DOM typing for functions that run inside the page (`page.evaluate`): the node
 * tsconfig has no DOM library, and adding one would change how every node file type-checks.
 * Types only; inside a page function write `const win = globalThis as unknown as PageWindow`.
 */
import type { StudioBridge } from '../../../src/shared/ipc/index.ts';

export interface PageRect {
  top: number;
  bottom: number;
  left: number;
  right: number;
  width: number;
  height: number;
}

export interface PageElement {
  getBoundingClientRect(): PageRect;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  click(): void;
  getAttribute(name: string): string | null;
  textContent: string | null;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  /** img */
  complete?: boolean;
  naturalWidth?: number;
  /** audio / video */
  currentTime?: number;
  paused?: boolean;
  readyState?: number;
  duration?: number;
}

export interface PageWindow {
  document: PageElement;
  innerWidth: number;
  innerHeight: number;
  requestAnimationFrame(callback: (now: number) => void): number;
  /** The bridge the harness installs (studio-bridge.ts). */
  studio: StudioBridge;
}
