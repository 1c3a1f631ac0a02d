/**
 * The account and upload answers of the service (field notes: `GET /account/info`, the upload
 * endpoint). Both come in the usual envelope `{code, data, message}`; every field may be
 * missing or null, so each is read on its own.
 */
import { z } from 'zod';

const numberish = z.union([z.number(), z.string()]).nullish();

export const AccountInfoSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.looseObject({
    account_name: z.string().nullish(),
    account_id: z.union([z.string(), z.number()]).nullish(),
    credits: numberish,
    equivalent_in_usd: numberish,
  }),
});

export interface AccountInfo {
  accountName: string | null;
  accountId: string | null;
  credits: number | null;
  balanceUsd: number | null;
}

function numberOf(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

export function accountInfoOf(parsed: z.infer<typeof AccountInfoSchema>): AccountInfo {
  const d = parsed.data;
  return {
    accountName: d.account_name ?? null,
    accountId: d.account_id === null || d.account_id === undefined ? null : String(d.account_id),
    credits: numberOf(d.credits),
    balanceUsd: numberOf(d.equivalent_in_usd),
  };
}

export const UploadAnswerSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.looseObject({ url: z.string().min(1) }),
});
