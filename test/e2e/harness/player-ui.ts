/**
 * The player bar and the audio elements behind it, for the player-*.test.ts files (their songs:
 * `makeSongs` in song-tasks.ts): the bar's controls by their names, and the state of the real
 * media elements the page played (recorded by `trackPlayedMedia`, which the page must load
 * with: `openApp(session, { beforeLoad: trackPlayedMedia })`).
 *
 * The bar's element is never in the document (the player state keeps it detached, so no view
 * change pauses it). The detail panel's waveform drives that same element (one player); any
 * element played inside the document would be a second player, which `detailAudio` finds.
 */
import type { Locator, Page } from '@playwright/test';
import type { Task } from '../../../src/shared/index.ts';

export interface MediaState {
  currentTime: number;
  duration: number;
  paused: boolean;
  src: string;
  loop: boolean;
  volume: number;
}

export function playerBar(page: Page): Locator {
  return page.getByRole('region', { name: 'Player' });
}

function played(page: Page, detached: boolean): Promise<MediaState | null> {
  return page.evaluate((wanted) => {
    const list =
      (
        globalThis as unknown as {
          __playedMedia?: {
            currentTime: number;
            duration: number;
            paused: boolean;
            currentSrc: string;
            loop: boolean;
            volume: number;
            isConnected: boolean;
          }[];
        }
      ).__playedMedia ?? [];
    const media = list.filter((m) => m.isConnected !== wanted).at(-1);
    return media
      ? {
          currentTime: media.currentTime,
          duration: media.duration,
          paused: media.paused,
          src: media.currentSrc,
          loop: media.loop,
          volume: media.volume,
        }
      : null;
  }, detached);
}

/** The player bar's audio element (it plays the library file's URL), once it has played. */
export function barAudio(page: Page): Promise<MediaState | null> {
  return played(page, true);
}

/** A media element in the document that played (none should: the detail's waveform drives the bar's). */
export function detailAudio(page: Page): Promise<MediaState | null> {
  return played(page, false);
}

/** The library URL's path of a song's saved file, as the bar's audio element reports it. */
export function songPath(task: Task): string {
  return `/library/${encodeURI(task.outputs[0]!.path!)}`;
}
