/**
 * Activity's held batch summaries (batch-summaries.ts): the newest read's answer wins, an older
 * answer after a newer one is ignored, an answer to a read that a newer read followed is still
 * taken while the newer one has not answered (reads started by effects since cleaned up count),
 * and the most recent SUMMARIES_KEPT batches are kept.
 */
import { describe, expect, it } from 'vitest';
import {
  heldSummary,
  SUMMARIES_KEPT,
  startSummaryRead,
  takeSummaryAnswer,
} from '../../src/renderer/src/features/activity/batch-summaries.ts';
import type { BatchSummary } from '../../src/shared/index.ts';

function summary(batchId: string, done: number): BatchSummary {
  return {
    batchId,
    title: 'Song',
    taskType: 'txt2audio',
    createdAt: '2026-01-01T00:00:00.000Z',
    total: 12,
    done,
    failed: 0,
    active: 12 - done,
    queued: 0,
    uncertain: 0,
    cancelled: 0,
    retried: 0,
    estimateMicros: 120_000,
    cost: {
      charged: { tasks: done, micros: done * 10_000 },
      pending: { tasks: 12 - done, micros: (12 - done) * 10_000 },
      notBilled: 0,
    },
    taskIds: [],
  };
}

describe('held batch summaries', () => {
  it('takes answers by read number: the newest wins, an older one after it is ignored', () => {
    const first = startSummaryRead();
    const second = startSummaryRead();
    const third = startSummaryRead();
    // under a steady stream of changes: the first read answers while newer ones are out
    expect(takeSummaryAnswer('b1', first, summary('b1', 1))).toBe(true);
    expect(heldSummary('b1')?.done).toBe(1);
    expect(takeSummaryAnswer('b1', third, summary('b1', 3))).toBe(true);
    expect(takeSummaryAnswer('b1', second, summary('b1', 2))).toBe(false);
    expect(heldSummary('b1')?.done).toBe(3);
    // a failed newest read: nothing held (the group falls back on its loaded tasks)
    expect(takeSummaryAnswer('b1', startSummaryRead(), null)).toBe(true);
    expect(heldSummary('b1')).toBeNull();
    expect(heldSummary('never-read')).toBeNull();
  });

  it(`keeps the ${SUMMARIES_KEPT} batches answered most recently`, () => {
    for (let i = 0; i <= SUMMARIES_KEPT; i++) {
      takeSummaryAnswer(`many-${i}`, startSummaryRead(), summary(`many-${i}`, i % 12));
    }
    expect(heldSummary('many-0')).toBeNull();
    expect(heldSummary('many-1')?.batchId).toBe('many-1');
    expect(heldSummary(`many-${SUMMARIES_KEPT}`)?.batchId).toBe(`many-${SUMMARIES_KEPT}`);
  });
});
