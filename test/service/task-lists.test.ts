/** The account's task lists and record read in either spelling the service's clients show. */
import { describe, expect, it } from 'vitest';
import {
  AccountInfoSchema,
  ActiveTasksAnswerSchema,
  accountInfoOf,
  activeTaskCountsOf,
  HistoryAnswerSchema,
  historyPageOf,
} from '../../src/shared/service/index.ts';

describe('task lists in either spelling', () => {
  it('a history page: camelCase or snake_case records, data or list, times as ISO, unix s or ms', () => {
    const camel = HistoryAnswerSchema.parse({
      code: 200,
      data: {
        data: [
          {
            taskId: 'a',
            taskModel: 'Qubico/flux',
            action: 'txt2img',
            status: 'Finished',
            createdAt: '2026-01-02T03:04:05Z',
          },
        ],
        page: 1,
        size: 20,
        total: '1',
      },
      message: 'success',
    });
    expect(historyPageOf(camel)).toEqual({
      records: [
        {
          taskId: 'a',
          model: 'Qubico/flux',
          action: 'txt2img',
          status: 'finished',
          createdAtMs: Date.parse('2026-01-02T03:04:05Z'),
        },
      ],
      total: 1,
    });
    const snake = HistoryAnswerSchema.parse({
      data: {
        list: [{ task_id: 7, model: 'flux', task_type: 'txt2img', created_at: 1767322245 }, { status: 'x' }],
      },
    });
    expect(historyPageOf(snake).records).toEqual([
      { taskId: '7', model: 'flux', action: 'txt2img', status: null, createdAtMs: 1767322245000 },
    ]);
    expect(
      historyPageOf(
        HistoryAnswerSchema.parse({ data: { data: [{ taskId: 'b', createdAt: 1767322245123 }] } }),
      ).records[0]?.createdAtMs,
    ).toBe(1767322245123);
  });

  it('running counts as a list or keyed by family; the account as account_* or id/name', () => {
    expect(
      activeTaskCountsOf(
        ActiveTasksAnswerSchema.parse({
          data: [{ model: 'llm', staged_count: 1, pending_count: '2', processing_count: 0 }],
        }),
      ),
    ).toEqual([{ family: 'llm', staged: 1, pending: 2, processing: 0 }]);
    expect(
      activeTaskCountsOf(ActiveTasksAnswerSchema.parse({ data: { flux: { processingCount: 3 } } })),
    ).toEqual([{ family: 'flux', staged: 0, pending: 0, processing: 3 }]);
    expect(
      accountInfoOf(AccountInfoSchema.parse({ data: { id: 12, name: 'me', credits: 5 } })),
    ).toMatchObject({ accountId: '12', accountName: 'me', credits: 5 });
    expect(
      accountInfoOf(
        AccountInfoSchema.parse({ data: { account_id: 'x', account_name: 'y', id: 1, name: 'z' } }),
      ),
    ).toMatchObject({ accountId: 'x', accountName: 'y' });
  });
});
