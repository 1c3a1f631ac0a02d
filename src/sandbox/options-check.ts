/** The defaults of SandboxOptions, and the check of options given in code (a RangeError naming the option). */
import type { SandboxOptions } from './options.ts';

export const DEFAULTS = {
  apiKey: 'demo-key',
  timeScale: 1,
  concurrencyLimit: 10,
  overLimit: 'stage',
  outputTtlMs: 3 * 24 * 60 * 60 * 1000,
  webhookAttempts: 5,
  webhookBackoffMs: 500,
  generationWorkers: 1,
  profile: 'spec',
  balanceMicros: 10_000_000,
  controlAccess: 'open',
  outbound: 'any',
  crossSite: 'allow',
} as const;

/** The real service keeps uploads 24 h (field notes). */
const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
const MIN_DEFAULT_UPLOAD_TTL_MS = 60 * 1000;

/** How long uploads are kept: the option, else 24 h x timeScale (at least a minute, so a fast sandbox can still use them). */
export function uploadTtlOf(options: SandboxOptions): number {
  if (options.uploadTtlMs !== undefined) return options.uploadTtlMs;
  const scaled = UPLOAD_TTL_MS * (options.timeScale ?? DEFAULTS.timeScale);
  return Math.max(MIN_DEFAULT_UPLOAD_TTL_MS, scaled);
}

const isCount = (n: number | undefined) => Number.isInteger(n) && (n ?? 0) >= 1;
const isNonNegative = (n: number | undefined) => Number.isFinite(n) && (n ?? -1) >= 0;

/** Throws a RangeError naming the first option out of its range. */
export function checkOptions(options: SandboxOptions): void {
  const fail = (name: string, rule: string) => {
    throw new RangeError(`sandbox option ${name} must be ${rule}`);
  };
  const { port, overLimit, profile, balanceMicros } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535))
    fail('port', 'an integer 0-65535');
  for (const name of ['timeScale', 'outputTtlMs', 'webhookBackoffMs', 'uploadTtlMs'] as const) {
    if (options[name] !== undefined && !isNonNegative(options[name])) fail(name, 'a number >= 0');
  }
  for (const name of ['concurrencyLimit', 'webhookAttempts'] as const) {
    if (options[name] !== undefined && !isCount(options[name])) fail(name, 'an integer >= 1');
  }
  if (overLimit !== undefined && overLimit !== 'stage' && overLimit !== 'refuse')
    fail('overLimit', "'stage' or 'refuse'");
  if (profile !== undefined && profile !== 'spec' && profile !== 'hosted')
    fail('profile', "'spec' or 'hosted'");
  if (balanceMicros !== undefined && !(Number.isSafeInteger(balanceMicros) && balanceMicros >= 0)) {
    fail('balanceMicros', 'an integer >= 0');
  }
  const { controlAccess, outbound, crossSite } = options;
  if (controlAccess !== undefined && !['open', 'api-key', 'off'].includes(controlAccess))
    fail('controlAccess', "'open', 'api-key' or 'off'");
  if (outbound !== undefined && outbound !== 'any' && outbound !== 'loopback-only')
    fail('outbound', "'any' or 'loopback-only'");
  if (crossSite !== undefined && crossSite !== 'allow' && crossSite !== 'refuse')
    fail('crossSite', "'allow' or 'refuse'");
}
