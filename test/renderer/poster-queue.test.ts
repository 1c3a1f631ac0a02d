/**
 * The poster maker's queue: a few posters drawn at a time (not one, not one per card), in the
 * order asked, each video once a session, a failure dropped without stopping the rest.
 */
import { describe, expect, it } from 'vitest';
import {
  POSTERS_AT_ONCE,
  type PosterJob,
  posterQueue,
} from '../../src/renderer/src/features/library/poster-queue.ts';

/** A make() whose jobs end when the test says, recording how many run at once. */
function heldMaker() {
  const ends = new Map<string, { ok(): void; fail(): void }>();
  const started: string[] = [];
  let running = 0;
  let most = 0;
  const make = (job: PosterJob) =>
    new Promise<void>((resolve, reject) => {
      running += 1;
      most = Math.max(most, running);
      started.push(job.taskId);
      const done = () => {
        running -= 1;
      };
      ends.set(job.taskId, {
        ok: () => {
          done();
          resolve();
        },
        fail: () => {
          done();
          reject(new Error('the video could not be read'));
        },
      });
    });
  return { make, started, ends, most: () => most };
}

const job = (taskId: string): PosterJob => ({ taskId, index: 0, url: `studio-media://x/${taskId}.mp4` });
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the poster queue', () => {
  it('draws a few at a time, in the order asked, each once, and goes on past a failure', async () => {
    expect(POSTERS_AT_ONCE).toBeGreaterThanOrEqual(2);
    expect(POSTERS_AT_ONCE).toBeLessThanOrEqual(3);
    const maker = heldMaker();
    const queue = posterQueue(maker.make, 2);
    for (const id of ['a', 'b', 'c', 'd', 'e']) queue.request(job(id));
    queue.request(job('a'));
    await settle();
    expect(maker.started).toEqual(['a', 'b']);
    expect(queue.counts()).toEqual({ running: 2, waiting: 3 });
    maker.ends.get('b')?.fail();
    await settle();
    expect(maker.started).toEqual(['a', 'b', 'c']);
    maker.ends.get('a')?.ok();
    await settle();
    expect(maker.started).toEqual(['a', 'b', 'c', 'd']);
    maker.ends.get('c')?.ok();
    maker.ends.get('d')?.ok();
    await settle();
    maker.ends.get('e')?.ok();
    await settle();
    expect(maker.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(maker.most()).toBe(2);
    expect(queue.counts()).toEqual({ running: 0, waiting: 0 });
    // a video asked again later (a card shown again) is not drawn twice; a new one starts at once
    queue.request(job('b'));
    queue.request(job('f'));
    await settle();
    expect(maker.started).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
