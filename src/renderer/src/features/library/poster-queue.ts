/**
 * The poster maker's queue (poster-maker.ts): each video output asked for once a session, at most
 * a few made at a time, in the order asked. Pure: what making one is, is given.
 */

/** How many posters are drawn at once: a few, not one per card shown. */
export const POSTERS_AT_ONCE = 2;

export interface PosterJob {
  taskId: string;
  index: number;
  url: string;
}

/**
 * A queue of posters to make: each job asked once (by task and output), at most `atOnce` made at
 * a time, in the order asked; a job that fails is dropped (`make` says nothing to the caller).
 */
export function posterQueue(make: (job: PosterJob) => Promise<void>, atOnce: number) {
  const tried = new Set<string>();
  const waiting: PosterJob[] = [];
  let running = 0;
  const next = async (): Promise<void> => {
    running += 1;
    try {
      for (let job = waiting.shift(); job; job = waiting.shift()) {
        try {
          await make(job);
        } catch {
          // dropped: its card keeps the kind's icon
        }
      }
    } finally {
      running -= 1;
    }
  };
  return {
    /** Asks for a job's poster; nothing when it was asked for before. */
    request(job: PosterJob): void {
      const key = `${job.taskId}:${job.index}`;
      if (tried.has(key)) return;
      tried.add(key);
      waiting.push(job);
      if (running < atOnce) void next();
    },
    /** Posters being made now, and waiting. */
    counts: () => ({ running, waiting: waiting.length }),
  };
}
