/**
 * `media-task sandbox`: runs the sandbox service until SIGINT or SIGTERM.
 *
 *   --port N              port on 127.0.0.1 (default 8787; 0 picks a free one)
 *   --api-key K           the accepted key (default demo-key)
 *   --time-scale X        multiplies every task duration (default 1)
 *   --concurrency N       pending + processing tasks per key (default 10)
 *   --over-limit MODE     stage | refuse (default stage): over the limit, hold as `staged` or answer 429
 *   --profile P           spec | hosted (default spec): the spec's answer forms, or copies of the
 *                         real service's records and error bodies (see index.ts)
 *   --balance-micros N    the account's starting balance in micro-USD (default 10000000 = 10 USD)
 *   --output-ttl-ms N     how long output URLs work (default 3 days)
 *   --upload-ttl-ms N     how long uploaded files work (default 24 h x time scale, at least 1 minute)
 *   --webhook-attempts N  --webhook-backoff-ms N
 *   --faults JSON         FaultOptions, e.g. '{"serverErrorRate":0.1,"seed":7}' or
 *                         '{"planRefusedTaskTypes":["face-swap"],"uploadRefused":true}'
 *   --control MODE        open | api-key | off (default open): who may use /_sandbox/...
 *   --outbound MODE       any | loopback-only (default any): what image inputs and webhooks may reach
 *                         (loopback-only: the sandbox's own files, no webhooks)
 *   --cross-site MODE     allow | refuse (default allow): requests from other sites' web pages
 *
 * Prints exactly one line on stdout: `Sandbox listening on http://127.0.0.1:<port>`.
 * Bad flags: a message on stderr and exit code 2.
 */

import { faultOptionsProblem } from './fault-options-check.ts';
import type { FaultOptions, SandboxOptions } from './options.ts';
import { startSandbox } from './start-sandbox.ts';

export class SandboxUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxUsageError';
  }
}

export const SANDBOX_USAGE = `usage: media-task sandbox [--port N] [--api-key K] [--time-scale X] [--concurrency N]
       [--over-limit stage|refuse] [--profile spec|hosted] [--balance-micros N] [--output-ttl-ms N]
       [--upload-ttl-ms N] [--webhook-attempts N] [--webhook-backoff-ms N] [--faults JSON]
       [--control open|api-key|off] [--outbound any|loopback-only] [--cross-site allow|refuse]

  --profile spec    answers in the spec's forms, errors as {code, message, data: null, error} (default)
  --profile hosted  answers as the real service's records: {code: 200, data, message: "success"},
                    null times until they happen, errors as {code, message} (400, 401, 403) or
                    {code, data: null, message} (other statuses)
  --balance-micros  starting balance in micro-USD, 1 credit = 1 micro-USD (default 10000000);
                    creates the balance cannot pay answer 402
  --faults          JSON FaultOptions: rates (serverErrorRate, rateLimitRate, bodyRefusalRate, ...),
                    planRefusedTaskTypes (403 "Insufficient plan level"), uploadRefused (403 on uploads)

  This is a developer tool: by default any program on this computer may read the ledger
  (GET /_sandbox/ledger: no key, no secrets, long values such as images shortened) and change
  the faults (PUT /_sandbox/faults), and the sandbox fetches any image URL and calls any
  webhook it is given. The app's built-in sandbox runs locked, as these flags do:
  --control api-key          the control paths need the sandbox's key in x-api-key (off: 404)
  --outbound loopback-only   image inputs only from the sandbox's own URLs and no webhooks;
                             other URLs, and any webhook endpoint, answer 400 naming the field
  --cross-site refuse        403 to any request from a web page of another origin
                             (an Origin not its own, or Sec-Fetch-Site: cross-site / same-site)`;

function numberFlag(flag: string, text: string, rule: (n: number) => boolean, ruleText: string): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || !rule(n)) {
    throw new SandboxUsageError(`${flag} must be ${ruleText}, got '${text}'`);
  }
  return n;
}

const isCount = (n: number) => Number.isInteger(n) && n >= 1;

/** A flag whose value is one of `choices`. */
function choiceFlag<T extends string>(flag: string, value: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new SandboxUsageError(`${flag} must be ${choices.map((c) => `'${c}'`).join(', ')}, got '${value}'`);
}

function parseFaults(text: string): FaultOptions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxUsageError(`--faults must be a JSON object, got '${text}'`);
  }
  const problem = faultOptionsProblem(parsed);
  if (problem) throw new SandboxUsageError(`--faults: ${problem}`);
  return parsed as FaultOptions;
}

/** Parses the flags into options (port defaults to 8787). Throws SandboxUsageError. */
export function parseSandboxArgs(argv: string[]): SandboxOptions {
  const options: SandboxOptions = { port: 8787 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new SandboxUsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    let value: string;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new SandboxUsageError(`${flag} needs a value`);
      value = next;
      i++;
    }
    switch (flag) {
      case '--port':
        options.port = numberFlag(
          flag,
          value,
          (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
          'an integer 0-65535',
        );
        break;
      case '--api-key':
        if (value === '') throw new SandboxUsageError('--api-key must not be empty');
        options.apiKey = value;
        break;
      case '--time-scale':
        options.timeScale = numberFlag(flag, value, (n) => n >= 0, 'a number >= 0');
        break;
      case '--concurrency':
        options.concurrencyLimit = numberFlag(flag, value, isCount, 'an integer >= 1');
        break;
      case '--over-limit':
        if (value !== 'stage' && value !== 'refuse')
          throw new SandboxUsageError("--over-limit must be 'stage' or 'refuse'");
        options.overLimit = value;
        break;
      case '--profile':
        if (value !== 'spec' && value !== 'hosted') {
          throw new SandboxUsageError(`--profile must be 'spec' or 'hosted', got '${value}'`);
        }
        options.profile = value;
        break;
      case '--balance-micros':
        options.balanceMicros = numberFlag(
          flag,
          value,
          (n) => Number.isSafeInteger(n) && n >= 0,
          'an integer >= 0 (micro-USD)',
        );
        break;
      case '--upload-ttl-ms':
        options.uploadTtlMs = numberFlag(flag, value, (n) => n >= 0, 'a number >= 0');
        break;
      case '--output-ttl-ms':
        options.outputTtlMs = numberFlag(flag, value, (n) => n >= 0, 'a number >= 0');
        break;
      case '--webhook-attempts':
        options.webhookAttempts = numberFlag(flag, value, isCount, 'an integer >= 1');
        break;
      case '--webhook-backoff-ms':
        options.webhookBackoffMs = numberFlag(flag, value, (n) => n >= 0, 'a number >= 0');
        break;
      case '--faults':
        options.faults = parseFaults(value);
        break;
      case '--control':
        options.controlAccess = choiceFlag(flag, value, ['open', 'api-key', 'off'] as const);
        break;
      case '--outbound':
        options.outbound = choiceFlag(flag, value, ['any', 'loopback-only'] as const);
        break;
      case '--cross-site':
        options.crossSite = choiceFlag(flag, value, ['allow', 'refuse'] as const);
        break;
      default:
        throw new SandboxUsageError(`unknown flag '${flag}'`);
    }
  }
  return options;
}

/** Runs the sandbox until SIGINT / SIGTERM; resolves once it has stopped. */
export async function runSandboxCommand(argv: string[]): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${SANDBOX_USAGE}\n`);
    return;
  }
  let options: SandboxOptions;
  try {
    options = parseSandboxArgs(argv);
  } catch (err) {
    if (!(err instanceof SandboxUsageError)) throw err;
    process.stderr.write(`sandbox: ${err.message}\n${SANDBOX_USAGE}\n`);
    process.exit(2);
  }
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox(options);
  } catch (err) {
    process.stderr.write(`sandbox: could not start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  process.stdout.write(`Sandbox listening on ${sandbox.url}\n`);
  await new Promise<void>((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      sandbox.stop().then(resolve, resolve);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
