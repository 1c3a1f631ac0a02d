import { afterEach, describe, expect, it } from 'vitest';
import { LibraryStoreError } from '../../src/core/store/index.ts';
import { billedCostOf, costWords } from '../../src/shared/task/billed-cost.ts';
import { imageTask, songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

describe('queue, recovery and polling queries', () => {
  it('nextQueued is FIFO by creation, tasksInStates oldest first over several states', () => {
    const store = libs.open();
    store.insertTask(songTask({ id: 'late', createdAt: '2025-01-03T00:00:00Z' }));
    store.insertTask(songTask({ id: 'early', createdAt: '2025-01-01T00:00:00Z' }));
    store.insertTask(songTask({ id: 'mid-a', createdAt: '2025-01-02T00:00:00Z' }));
    store.insertTask(songTask({ id: 'mid-b', createdAt: '2025-01-02T00:00:00Z' }));
    expect(store.nextQueued(10).map((t) => t.id)).toEqual(['early', 'mid-a', 'mid-b', 'late']);
    expect(store.nextQueued(2).map((t) => t.id)).toEqual(['early', 'mid-a']);

    store.transition('mid-a', 'submitting');
    store.transition('late', 'downloading');
    expect(store.tasksInStates(['downloading', 'submitting']).map((t) => t.id)).toEqual(['mid-a', 'late']);
    expect(store.tasksInStates(['downloading', 'submitting', 'queued'], 2).map((t) => t.id)).toEqual([
      'early',
      'mid-a',
    ]);
    expect(store.tasksInStates([])).toEqual([]);
    expect(store.tasksInStates(['submitting'])[0]?.inputs).toEqual([]);
    expect(() => store.nextQueued(0)).toThrow(LibraryStoreError);
  });

  it('dueForPoll returns active remote tasks whose poll is due, earliest first', () => {
    const store = libs.open();
    const make = (id: string) => store.insertTask(songTask({ id })).id;
    store.transition(make('p1'), 'pending', { patch: { nextPollAt: 3000 } });
    store.transition(make('p2'), 'processing', { patch: { nextPollAt: 1000 } });
    store.transition(make('p3'), 'staged', { patch: { nextPollAt: 2000 } });
    store.transition(make('later'), 'processing', { patch: { nextPollAt: 9000 } });
    store.transition(make('none'), 'processing');
    // Not active any more: its stale next_poll_at must not make it due.
    store.transition(make('done'), 'completed', { patch: { nextPollAt: 500 } });
    expect(store.dueForPoll(5000, 10).map((t) => t.id)).toEqual(['p2', 'p3', 'p1']);
    expect(store.dueForPoll(5000, 2).map((t) => t.id)).toEqual(['p2', 'p3']);
    expect(store.dueForPoll(999, 10)).toEqual([]);
    expect(store.countInStates(['pending', 'staged', 'processing'])).toBe(5);
  });
});

describe('costSummary', () => {
  it('sums estimates and reported usage over every task but cancelled ones', () => {
    const store = libs.open();
    const a = store.insertTask(songTask({ estimateMicros: 15_000 })).id;
    const b = store.insertTask(imageTask({ estimateMicros: 25_000 })).id;
    const c = store.insertTask(imageTask({ estimateMicros: 25_000 })).id;
    store.insertTask(imageTask({ estimateMicros: null }));
    store.transition(a, 'saved', { patch: { usage: { type: 'credits', frozen: 0, consume: 0.1 } } });
    store.transition(b, 'saved', { patch: { usage: { type: 'credits', frozen: 0, consume: 0.2 } } });
    store.transition(c, 'cancelled');
    expect(store.costSummary()).toMatchObject({ estimateMicros: 40_000, consume: 0.3, tasks: 3 });
    // Usage changing later is followed; deleting takes the task out.
    store.patchTask(a, { usage: { type: 'credits', frozen: 0, consume: 1.5 } });
    store.deleteTask(b);
    expect(store.costSummary()).toMatchObject({ estimateMicros: 15_000, consume: 1.5, tasks: 2 });
    expect(store.integrityCheck()).toBe('ok');
  });

  it('counts what each task cost: the billed cost once known, the estimate before, nothing if never created', () => {
    const store = libs.open();
    const song = store.insertTask(songTask({ estimateMicros: 15_000 })).id;
    const swap = store.insertTask(imageTask({ estimateMicros: 10_000 })).id;
    const refused = store.insertTask(imageTask({ estimateMicros: 25_000 })).id;
    const remoteCancel = store.insertTask(imageTask({ estimateMicros: 25_000 })).id;
    const unbilled = store.insertTask(imageTask({ estimateMicros: 25_000 })).id;
    store.insertTask(imageTask({ estimateMicros: 10_000 })); // still queued: its estimate counts
    expect(store.costSummary().spentMicros).toBe(110_000);
    // Once the service ends a task the engine records its usage and the billed cost made of it
    // (README "Usage units"): the store counts that cost, never the raw `consume`.
    const ended = (type: string, consume: number, estimate: number) => {
      const usage = { type, frozen: 0, consume };
      return { usage, cost: billedCostOf(usage, estimate, null) };
    };
    // the song's 14,000 llm units are 14,000 micro-dollars
    store.transition(song, 'saved', { patch: { remoteId: 'r-song', ...ended('llm', 14_000, 15_000) } });
    // a running task reports consume 0: not $0, its estimate still counts
    store.transition(swap, 'processing', {
      patch: { remoteId: 'r-swap', usage: { type: 'point', frozen: 100_000, consume: 0 } },
    });
    store.transition(refused, 'failed'); // refused by the service: never created, never billed
    // 200,000 points of 1e-7 USD billed for the task cancelled at the service: 20,000 micro-dollars
    store.transition(remoteCancel, 'cancelled', {
      patch: { remoteId: 'r-cancel', ...ended('point', 200_000, 25_000) },
    });
    // failed at the service, which billed nothing
    store.transition(unbilled, 'failed', { patch: { remoteId: 'r-unbilled', ...ended('point', 0, 25_000) } });
    expect(store.costSummary().spentMicros).toBe(14_000 + 10_000 + 0 + 20_000 + 0 + 10_000);
    expect(store.integrityCheck()).toBe('ok');
  });

  it('keeps a flagged cost with the published price, and counts the larger of the two', () => {
    const dir = libs.dir();
    const store = libs.open(dir);
    // two 3D models published at $0.04: one reported ten times higher, one ten times lower
    const high = store.insertTask(imageTask({ estimateMicros: 40_000 })).id;
    const low = store.insertTask(imageTask({ estimateMicros: 40_000 })).id;
    const billed = (consume: number) => {
      const usage = { type: 'point', frozen: 0, consume };
      return { usage, cost: billedCostOf(usage, 40_000, 0.1) };
    };
    store.transition(high, 'saved', { patch: { remoteId: 'r-high', ...billed(4_000_000) } });
    store.transition(low, 'saved', { patch: { remoteId: 'r-low', ...billed(40_000) } });
    // the budget and the spending summary count $0.40 and $0.04: never the smaller figure
    expect(store.costSummary().spentMicros).toBe(400_000 + 40_000);
    store.close();
    const again = libs.open(dir);
    const highCost = again.getTask(high)?.cost;
    expect(highCost).toEqual({
      micros: 400_000,
      reportedMicros: 400_000,
      publishedMicros: 40_000,
      microsPerPoint: 0.1,
      pointValueFrom: 'account',
      flagged: true,
    });
    expect(again.getTask(low)?.cost).toMatchObject({ micros: 40_000, reportedMicros: 4_000, flagged: true });
    // shown with the price, never taken silently
    expect(costWords(highCost!)).toBe(
      'reported $0.40; published price $0.04 — check your account ($0.40 counted)',
    );
    expect(again.costSummary().spentMicros).toBe(440_000);
    expect(again.integrityCheck()).toBe('ok');
  });
});

describe('durationHistory', () => {
  it('gives service-side durations of the latest finished tasks of one model and type', () => {
    const store = libs.open();
    const finish = (
      id: string,
      state: 'saved' | 'completed' | 'failed',
      began: Record<string, string>,
      endedAt: string,
    ) => {
      store.insertTask(songTask({ id, style: `style ${id}` }));
      store.transition(id, state, { patch: { ...began, endedAt } });
    };
    finish(
      'a',
      'saved',
      { remoteCreatedAt: '2025-01-01T00:00:00Z', submittedAt: '2024-12-31T23:59:00Z' },
      '2025-01-01T00:01:00Z',
    );
    finish('b', 'completed', { submittedAt: '2025-01-02T00:00:00Z' }, '2025-01-02T00:00:30Z');
    finish('c', 'saved', { remoteCreatedAt: '2025-01-03T00:00:00+01:00' }, '2025-01-02T23:00:45Z');
    finish('failed', 'failed', { remoteCreatedAt: '2025-01-04T00:00:00Z' }, '2025-01-04T00:00:01Z');
    finish('no-start', 'saved', {}, '2025-01-05T00:00:00Z');
    store.insertTask(imageTask({ id: 'other-model' }));
    store.transition('other-model', 'saved', {
      patch: { remoteCreatedAt: '2025-01-06T00:00:00Z', endedAt: '2025-01-06T00:00:10Z' },
    });

    const history = store.durationHistory('service/ace-step', 'txt2audio');
    expect(history.map((h) => [h.durationMs, h.endedAt])).toEqual([
      [45_000, '2025-01-02T23:00:45.000Z'],
      [30_000, '2025-01-02T00:00:30.000Z'],
      [60_000, '2025-01-01T00:01:00.000Z'],
    ]);
    expect(history[0]?.request.input.style_prompt).toBe('style c');
    expect(store.durationHistory('service/ace-step', 'txt2audio', 1)).toHaveLength(1);
    expect(store.durationHistory('service/image-edit', 'image-edit').map((h) => h.durationMs)).toEqual([
      10_000,
    ]);
  });
});
