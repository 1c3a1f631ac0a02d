import { afterEach, describe, expect, it } from 'vitest';
import { nextSeq, SEQ_PER_MS, seqFloor } from '../../src/core/store/sort-key.ts';
import { songTask, tempLibraries } from './store-fixtures.ts';

const libs = tempLibraries();
afterEach(() => libs.cleanup());

describe('seq, the sort key made from the creation time', () => {
  const iso = '2025-06-01T12:00:00.000Z';
  const floor = Date.parse(iso) * SEQ_PER_MS;

  it('is the first number of the millisecond, then the next free one', () => {
    expect(seqFloor(iso, 'createdAt')).toBe(floor);
    expect(nextSeq(iso, () => null)).toBe(floor);
    expect(nextSeq(iso, (lo, hi) => (lo === floor && hi === floor + SEQ_PER_MS ? floor + 4 : null))).toBe(
      floor + 5,
    );
  });

  it('spills into the next millisecond when one is full', () => {
    const used = new Map([
      [floor, floor + SEQ_PER_MS - 1],
      [floor + SEQ_PER_MS, floor + SEQ_PER_MS + 2],
    ]);
    expect(nextSeq(iso, (lo) => used.get(lo) ?? null)).toBe(floor + SEQ_PER_MS + 3);
  });

  it('refuses times it cannot order exactly', () => {
    expect(() => seqFloor('+275760-09-13T00:00:00.000Z', 'createdAt')).toThrow(/outside the times/);
    expect(() => seqFloor('nonsense', 'createdAt')).toThrow(/outside the times/);
  });

  it('lets more than 1,024 tasks share one millisecond', () => {
    const store = libs.open();
    const later = store.insertTask(songTask({ id: 'later', createdAt: '2025-06-01T12:00:00.001Z' })).id;
    const ids = store.transaction(() =>
      Array.from({ length: SEQ_PER_MS + 6 }, () => store.insertTask(songTask({ createdAt: iso })).id),
    );
    const listed: string[] = [];
    let cursor: string | null = null;
    do {
      const page = store.listTasks({ limit: 200, cursor });
      listed.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(listed).toHaveLength(ids.length + 1);
    expect(new Set(listed).size).toBe(listed.length);
    // Within the millisecond, newest first means last inserted first.
    expect(listed.filter((id) => id !== later)).toEqual([...ids].reverse());
  });
});
