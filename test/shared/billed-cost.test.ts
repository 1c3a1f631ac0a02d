import { describe, expect, it } from 'vitest';
import { accountMicrosPerPoint, billedCostOf, costWords } from '../../src/shared/task/billed-cost.ts';

describe('billed cost', () => {
  it('takes the point value from the account, else per usage type', () => {
    const perPoint = accountMicrosPerPoint({ credits: 10_000_000, balanceUsd: 1 });
    expect(perPoint).toBeCloseTo(0.1);
    expect(billedCostOf({ type: 'point', consume: 400_000 }, 40_000, perPoint)).toMatchObject({
      micros: 40_000,
      flagged: false,
      pointValueFrom: 'account',
    });
    expect(billedCostOf({ type: 'point', consume: 400_000 }, 40_000, null)?.micros).toBe(40_000);
    expect(billedCostOf({ type: 'llm', consume: 5_000 }, 5_000, perPoint)?.micros).toBe(5_000);
    expect(billedCostOf({ type: 'quota', consume: 5 }, 5_000, null)).toBeNull();
    expect(accountMicrosPerPoint({ credits: 0, balanceUsd: 1 })).toBeNull();
  });

  it('flags a figure more than twice off the published price, counts the larger and says both', () => {
    // an account whose point is a micro-dollar reading a 3D model's 400,000 points: $0.40 vs $0.04
    const cost = billedCostOf({ type: 'point', consume: 400_000 }, 40_000, 1);
    expect(cost).toMatchObject({
      micros: 400_000,
      reportedMicros: 400_000,
      publishedMicros: 40_000,
      flagged: true,
    });
    expect(cost && costWords(cost)).toBe(
      'reported $0.40; published price $0.04 — check your account ($0.40 counted)',
    );
    const low = billedCostOf({ type: 'point', consume: 4_000 }, 40_000, 1);
    expect(low).toMatchObject({ micros: 40_000, reportedMicros: 4_000, flagged: true });
    // within a factor of two, or no published price: taken as reported
    expect(billedCostOf({ type: 'point', consume: 70_000 }, 40_000, 1)?.flagged).toBe(false);
    expect(billedCostOf({ type: 'point', consume: 70_000 }, null, 1)?.flagged).toBe(false);
  });
});
