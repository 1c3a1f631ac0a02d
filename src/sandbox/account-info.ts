/**
 * The answer of `GET /account/info` (field notes: `{code, data: {account_name, account_id,
 * credits, equivalent_in_usd, …}, message}`), computed from the account's balance. The same in
 * both answer profiles but for the unit of a credit: a point, the unit of `usage.consume` (1 micro-USD
 * in the spec profile, 1e-7 USD in the hosted one, as the real service's examples fit).
 */

import { HOSTED_POINTS_PER_MICRO } from './hosted-record.ts';
import { hashText } from './media/index.ts';
import type { AnswerProfile } from './options.ts';
import type { AccountBalance } from './task-lifecycle.ts';

const MICROS_PER_USD = 1_000_000;

export interface AccountInfoSource {
  apiKey: string;
  balance: AccountBalance;
  concurrencyLimit: number;
  profile: AnswerProfile;
}

/**
 * `credits` is what can still be spent (starting balance - frozen by unfinished tasks - consumed
 * by completed ones); `equivalent_in_usd` the same in dollars; `wallet` splits it as the real
 * account record's wallet does (point_remain, point_frozen, point_used).
 */
export function accountInfoAnswer(source: AccountInfoSource): unknown {
  const { balance } = source;
  const perMicro = source.profile === 'hosted' ? HOSTED_POINTS_PER_MICRO : 1;
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
      credits: balance.available * perMicro,
      equivalent_in_usd: balance.available / MICROS_PER_USD,
      max_concurrent_task_count: source.concurrencyLimit,
      credit_pack_info: [{ pack_name: 'sandbox', credits: balance.available * perMicro, expires_at: null }],
      wallet: {
        point_remain: balance.available * perMicro,
        point_frozen: balance.frozen * perMicro,
        point_used: balance.used * perMicro,
      },
    },
    message: 'success',
  };
}
