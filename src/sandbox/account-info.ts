/**
 * The answer of `GET /account/info` (field notes: `{code, data: {account_name, account_id,
 * credits, equivalent_in_usd, …}, message}`), computed from the account's balance. The same in
 * both answer profiles. Credits are points: 1 credit = 1 micro-USD, the unit of `usage.consume`.
 */
import { hashText } from './media/index.ts';
import type { AccountBalance } from './task-lifecycle.ts';

const MICROS_PER_USD = 1_000_000;

export interface AccountInfoSource {
  apiKey: string;
  balance: AccountBalance;
  concurrencyLimit: number;
}

/**
 * `credits` is what can still be spent (starting balance - frozen by unfinished tasks - consumed
 * by completed ones); `equivalent_in_usd` the same in dollars; `wallet` splits it as the real
 * account record's wallet does (point_remain, point_frozen, point_used).
 */
export function accountInfoAnswer(source: AccountInfoSource): unknown {
  const { balance } = source;
  // the same number as form C's userId for this key
  const id = hashText(source.apiKey) % 1_000_000;
  return {
    code: 200,
    data: {
      // both spellings public clients read (`account_*` in the docs, `id`/`name` in some clients)
      account_name: 'sandbox',
      account_id: id,
      name: 'sandbox',
      id,
      plan: 'sandbox',
      credits: balance.available,
      equivalent_in_usd: balance.available / MICROS_PER_USD,
      max_concurrent_task_count: source.concurrencyLimit,
      credit_pack_info: [{ pack_name: 'sandbox', credits: balance.available, expires_at: null }],
      wallet: { point_remain: balance.available, point_frozen: balance.frozen, point_used: balance.used },
    },
    message: 'success',
  };
}
