/**
 * The account and upload answers of the service (field notes: `GET /account/info`, the upload
 * endpoint). Both come in the usual envelope `{code, data, message}`; every field may be
 * missing or null, so each is read on its own.
 */
import { z } from 'zod';
import { isLoopbackHost } from '../catalog/limits.ts';
import { hasControlCharacters } from '../text/control-characters.ts';

const numberish = z.union([z.number(), z.string()]).nullish();

export const AccountInfoSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.looseObject({
    account_name: z.string().nullish(),
    account_id: z.union([z.string(), z.number()]).nullish(),
    // the other spelling some public clients read
    name: z.string().nullish(),
    id: z.union([z.string(), z.number()]).nullish(),
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
  const id = d.account_id ?? d.id;
  return {
    accountName: d.account_name ?? d.name ?? null,
    accountId: id === null || id === undefined ? null : String(id),
    credits: numberOf(d.credits),
    balanceUsd: numberOf(d.equivalent_in_usd),
  };
}

export const UploadAnswerSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  data: z.looseObject({ url: z.string().min(1) }),
});

/** Longest address an upload answer may give (the create carries it to the service). */
export const UPLOAD_URL_MAX_CHARS = 2048;

/**
 * Why the address an upload answer gave cannot be used, or null: at most 2048 characters, no
 * spaces or control characters, https (http only when the upload endpoint itself is on this
 * computer, as the sandbox is, and the address is too). In words for a person.
 */
export function uploadUrlProblem(url: string, where: { endpointIsLocal: boolean }): string | null {
  if (url.length > UPLOAD_URL_MAX_CHARS) {
    return `it is ${url.length} characters long; at most ${UPLOAD_URL_MAX_CHARS} are accepted`;
  }
  if (/\s/.test(url) || hasControlCharacters(url)) return 'it holds spaces or control characters';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a web address';
  }
  if (parsed.protocol === 'https:') return null;
  if (parsed.protocol === 'http:' && where.endpointIsLocal && isLoopbackHost(parsed.hostname)) return null;
  return where.endpointIsLocal
    ? 'it must start with https:// (http:// only for this computer)'
    : 'it must start with https://';
}
