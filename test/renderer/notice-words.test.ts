/** The words of notices, banners and Activity rows: sentences, connection states, money. */
import { describe, expect, it } from 'vitest';
import { connectionStateOf } from '../../src/renderer/src/model/connection-state.ts';
import {
  batchCostText,
  budgetProblem,
  reportedCostText,
  taskCostText,
  usageText,
} from '../../src/renderer/src/model/money-text.ts';
import { asSentence, errorText, fieldNamedIn } from '../../src/renderer/src/model/studio-error.ts';
import { rowStatusOf } from '../../src/renderer/src/model/task-status.ts';
import type { EngineStatusView } from '../../src/shared/index.ts';

const STATUS: EngineStatusView = {
  online: true,
  networkSignal: true,
  serviceConfigured: true,
  authProblem: null,
  serviceLimit: null,
  serviceLimitReason: null,
  nextAttemptAt: null,
  queued: 0,
  activeRemote: 0,
  storageProblem: null,
  atService: null,
  retentionRun: null,
  service: 'remote',
  serviceAddress: 'https://api.piapi.ai',
};

describe('messages as sentences', () => {
  it('capitalises a message that starts with a plain word', () => {
    expect(asSentence('the service refused the API key')).toBe('The service refused the API key');
    expect(asSentence("  can't read it: nothing")).toBe("Can't read it: nothing");
    expect(asSentence('your plan: no')).toBe('Your plan: no');
    expect(errorText(new Error('something went wrong'))).toBe('Something went wrong');
  });

  it('leaves field paths, codes, addresses and capitals as they are', () => {
    for (const text of [
      'input.duration must be between 1 and 240',
      'image1: is required',
      'https://api.piapi.ai does not answer',
      'style_prompt: too long',
      'JSON is not valid',
      '“Song” failed',
    ]) {
      expect(asSentence(text)).toBe(text);
    }
  });

  it('finds the input field a failure names', () => {
    expect(fieldNamedIn('the service refused the task: input.duration must be between 1 and 240')).toBe(
      'duration',
    );
    expect(fieldNamedIn('image1: is required')).toBe('image1');
    expect(fieldNamedIn('style_prompt: too long')).toBe('style_prompt');
    expect(fieldNamedIn('the service refused the task: Insufficient credits')).toBeNull();
  });
});

describe('connection state', () => {
  it('tells apart no network, an address that does not answer, a refused key and no service', () => {
    expect(connectionStateOf(STATUS)).toEqual({ kind: 'ok' });
    expect(connectionStateOf({ ...STATUS, networkSignal: false, online: false })).toEqual({
      kind: 'no-network',
    });
    expect(connectionStateOf({ ...STATUS, online: false })).toEqual({
      kind: 'unreachable',
      address: 'https://api.piapi.ai',
    });
    expect(connectionStateOf({ ...STATUS, authProblem: 'refused' })).toEqual({ kind: 'key-refused' });
    expect(connectionStateOf({ ...STATUS, service: 'none', serviceAddress: null })).toEqual({
      kind: 'no-service',
    });
  });

  it('a task that cannot be sent says what it waits for, with no progress bar', () => {
    const unreachable = connectionStateOf({ ...STATUS, online: false });
    for (const state of ['queued', 'submitting'] as const) {
      const row = rowStatusOf({ state, error: null }, unreachable);
      expect(row).toMatchObject({ label: 'Waiting for the service', showProgress: false });
      expect(row.explanation).toContain('the service at https://api.piapi.ai does not answer');
    }
    expect(rowStatusOf({ state: 'queued', error: null }, { kind: 'no-network' }).label).toBe(
      'Waiting for the network',
    );
    expect(rowStatusOf({ state: 'queued', error: null }, { kind: 'key-refused' }).label).toBe(
      'Waiting for a key',
    );
    expect(rowStatusOf({ state: 'submitting', error: null }, { kind: 'ok' })).toMatchObject({
      label: 'Sending',
      showProgress: true,
    });
    const refused = { kind: 'plan-refused', message: 'your plan does not allow it', code: 403 };
    expect(rowStatusOf({ state: 'failed', error: refused }, { kind: 'ok' }).label).toBe('Not in your plan');
    const atService = rowStatusOf({ state: 'processing', error: null }, unreachable);
    expect(atService).toMatchObject({ label: 'Generating', showProgress: false });
  });
});

describe('money', () => {
  it('shows no cost as billed in the demo library', () => {
    const task = { state: 'saved', remoteId: 'r1', estimateMicros: 15_000, usage: null };
    expect(taskCostText(task, true)).toBe('Demo: not billed');
  });

  it('shows a task the service never created or charged as not billed, else what it charged', () => {
    const base = { remoteId: 'r1', estimateMicros: 15_000, usage: null };
    expect(taskCostText({ ...base, state: 'failed', remoteId: null }, false)).toBe('Not billed');
    expect(taskCostText({ ...base, state: 'failed', usage: { type: 'llm', consume: 0 } }, false)).toBe(
      'Not billed',
    );
    expect(taskCostText({ ...base, state: 'cancelled', remoteId: null }, false)).toBe('Not billed');
    expect(taskCostText({ ...base, state: 'saved', usage: { type: 'llm', consume: 12_000 } }, false)).toBe(
      '$0.012',
    );
    expect(taskCostText({ ...base, state: 'processing' }, false)).toBe('$0.015');
    // the service's `consume: 0` while it runs is no charge yet: the estimate shows
    expect(taskCostText({ ...base, state: 'processing', usage: { type: 'llm', consume: 0 } }, false)).toBe(
      '$0.015',
    );
    expect(taskCostText({ ...base, state: 'saved', usage: { type: 'llm', consume: 0 } }, false)).toBe(
      '$0.00',
    );
    expect(taskCostText({ ...base, state: 'saved', usage: { type: 'quota', consume: 7 } }, false)).toBe(
      '$0.015',
    );
  });

  it("says a batch's total in its rows' words: charged, pending, not billed; never charged in demo mode", () => {
    const sum = (tasks: number, micros: number | null) => ({ tasks, micros });
    // one billed $0.05, two failures the service did not bill: not $0.15
    expect(batchCostText({ charged: sum(1, 50_000), pending: sum(0, 0), notBilled: 2 }, false)).toBe(
      '$0.05 charged · 2 not billed',
    );
    expect(batchCostText({ charged: sum(0, 0), pending: sum(3, 45_000), notBilled: 0 }, false)).toBe(
      '$0.045 pending',
    );
    expect(batchCostText({ charged: sum(2, 30_000), pending: sum(1, null), notBilled: 1 }, false)).toBe(
      '$0.03 charged · price unknown pending · 1 not billed',
    );
    expect(batchCostText({ charged: sum(0, 0), pending: sum(0, 0), notBilled: 4 }, false)).toBe('Not billed');
    expect(batchCostText({ charged: sum(1, 50_000), pending: sum(2, 100_000), notBilled: 2 }, true)).toBe(
      'Demo: not billed',
    );
  });

  it("the composer's live budget check says what main would refuse, with its figures", () => {
    const spending = (spentMicros: number, budgetMicros: number | null) => ({ spentMicros, budgetMicros });
    expect(budgetProblem(15_000, 1, spending(0, 1_000))).toBe(
      'Over your budget: this task ($0.015) would take the total to $0.015 of $0.001; raise the budget in Settings to queue it',
    );
    expect(budgetProblem(60_000, 4, spending(20_000, 50_000))).toBe(
      'Over your budget: this batch of 4 tasks ($0.06) would take the total to $0.08 of $0.05; raise the budget in Settings to queue them',
    );
    // fits, no budget, costs not read yet, price unknown (Queue asks about that): nothing to say
    expect(budgetProblem(30_000, 1, spending(20_000, 50_000))).toBeNull();
    expect(budgetProblem(15_000, 1, spending(0, null))).toBeNull();
    expect(budgetProblem(15_000, 1, null)).toBeNull();
    expect(budgetProblem(null, 1, spending(0, 1_000))).toBeNull();
  });

  it('says what the service reported in money when the unit is known, else plainly', () => {
    expect(usageText(null)).toBeNull();
    expect(usageText({ type: 'llm', frozen: 5_000, consume: 5_000 })).toBe(
      '$0.005 charged, as the service reported',
    );
    expect(usageText({ type: null, frozen: 5_000, consume: null })).toBe(
      '$0.005 set aside by the service while it runs; the charge comes when it ends',
    );
    expect(usageText({ type: 'quota', frozen: null, consume: 12 })).toBe(
      'The service counted 12 units of its quota used',
    );
    // points of the image, video and 3D families are not micro-dollars (1e-7 USD in the docs' examples)
    expect(usageText({ type: 'point', frozen: null, consume: 400_000 })).toBe(
      '400,000 points used, as the service reported',
    );
  });

  it("the detail says the billed cost once known, flagged when it disagrees with the price, and never 'charged' in demo", () => {
    const trellis = { usage: { type: 'point', frozen: null, consume: 400_000 } };
    const billed = { micros: 40_000, reportedMicros: 40_000, publishedMicros: 40_000, flagged: false };
    expect(reportedCostText({ ...trellis, cost: billed as never }, false)).toBe(
      '$0.04 charged, as the service reported',
    );
    const flagged = { micros: 400_000, reportedMicros: 400_000, publishedMicros: 40_000, flagged: true };
    expect(reportedCostText({ ...trellis, cost: flagged as never }, false)).toBe(
      'reported $0.40; published price $0.04 — check your account ($0.40 counted)',
    );
    expect(reportedCostText({ ...trellis, cost: { ...billed, micros: 0 } as never }, false)).toBe(
      'Not billed, as the service reported',
    );
    expect(reportedCostText({ ...trellis, cost: null }, false)).toBe(
      '400,000 points used, as the service reported',
    );
    expect(reportedCostText({ ...trellis, cost: billed as never }, true)).toBe('Demo: not billed');
    expect(reportedCostText({ usage: null, cost: null }, false)).toBeNull();
  });
});

describe('Recently deleted questions', () => {
  it('name a capped count (a search or board of over 1,000) as a lower bound, never as the number moved', async () => {
    const { questionWords } = await import('../../src/renderer/src/features/library/trash-question-words.ts');
    const selection = { filter: { search: 'music' }, except: [] };
    expect(questionWords({ kind: 'trash', selection, count: 1_000, running: 0, capped: true }).title).toBe(
      'Move more than 1,000 tasks to Recently deleted?',
    );
    expect(questionWords({ kind: 'forever', selection, count: 1_000, capped: true }).confirm).toBe(
      'Delete more than 1,000 tasks forever',
    );
    expect(questionWords({ kind: 'trash', selection, count: 12, running: 2 }).title).toBe(
      'Move 10 tasks to Recently deleted?',
    );
  });
});

describe('Add to board by name', () => {
  it('says, as the user types, that a name a board has (any case) adds to that board, as boards.add does', async () => {
    const { boardNamed, namedBoardWords } = await import(
      '../../src/renderer/src/features/boards/board-words.ts'
    );
    const boards = [
      { id: 1, name: 'Harbours', tasks: 3 },
      { id: 2, name: 'Été', tasks: 1 },
    ];
    expect(namedBoardWords(boards, '  harBOURS ')).toBe('Adds to the existing board “Harbours” (3 tasks).');
    expect(boardNamed(boards, 'HARBOURS')?.id).toBe(1);
    // a new name, part of one, or nothing: a new board
    expect(namedBoardWords(boards, 'Harbour')).toBeNull();
    expect(namedBoardWords(boards, '   ')).toBeNull();
    // the store folds A-Z only (SQLite's NOCASE): "ÉTÉ" is a new board there, so here too
    expect(boardNamed(boards, 'ÉTÉ')).toBeNull();
    expect(boardNamed(boards, 'Été')?.id).toBe(2);
  });
});

describe('Settings › Retention preview', () => {
  const byKind = [
    { kind: 'image' as const, tasks: 1333, bytes: 1024 },
    { kind: 'audio' as const, tasks: 444, bytes: 1024 },
    { kind: 'video' as const, tasks: 1, bytes: 1024 },
  ];

  it('counts things by kind with the thousands separator, as tasks (review s7b, defect 6)', async () => {
    const { retentionPreviewText } = await import(
      '../../src/renderer/src/features/settings/retention-run.ts'
    );
    expect(
      retentionPreviewText({
        before: '2026-01-01T00:00:00Z',
        tasks: 1778,
        bytes: 3072,
        byKind,
        atLeast: true,
        looked: 2000,
      }),
    ).toBe(
      'Would move at least 1,778 tasks to Recently deleted now (1,333 pictures, 444 songs, 1 video); frees at least 3 KB once they leave it, after 30 days.',
    );
  });

  it('says a preview that stopped at the oldest tasks moved nothing of those only, in the CLI’s words (defect 5)', async () => {
    const { retentionPreviewText } = await import(
      '../../src/renderer/src/features/settings/retention-run.ts'
    );
    const { nothingToMoveText } = await import('../../src/shared/task/retention.ts');
    const stopped = {
      before: '2026-01-01T00:00:00Z',
      tasks: 0,
      bytes: 0,
      byKind: [],
      atLeast: true as const,
      looked: 2000,
    };
    expect(retentionPreviewText(stopped)).toBe(
      'A run now would move nothing of the 2,000 oldest tasks it looked at.',
    );
    expect(retentionPreviewText({ before: '2026-01-01T00:00:00Z', tasks: 0, bytes: 0, byKind: [] })).toBe(
      nothingToMoveText({}),
    );
    expect(nothingToMoveText({})).toBe(
      'A run now would move nothing: no ended task is that old and left by the keep rules.',
    );
  });
});
