/**
 * `media-task account`: the balance at the service (`GET /account/info`), without opening the
 * library. Also a cheap check that the key and the address work.
 */
import { ServiceClient } from '../core/service/index.ts';
import { startSandbox } from '../sandbox/index.ts';
import { noPositionals, readArgs, UsageError } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import { apiKeyFromEnv, type GlobalOptions, profileOfOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { printOut } from './terminal-output.ts';

const SANDBOX_KEY = 'demo-key';

export async function runAccount(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  noPositionals(readArgs(argv, {}).positionals);
  const sandbox = g.sandbox
    ? await startSandbox({ apiKey: SANDBOX_KEY, timeScale: g.timeScale ?? 0.1 })
    : null;
  const profile = profileOfOptions(g, sandbox?.url ?? null);
  const key = sandbox ? SANDBOX_KEY : apiKeyFromEnv(env);
  if (!key) {
    await sandbox?.stop();
    throw new UsageError('account needs an API key: set MEDIA_TASK_API_KEY (or use --sandbox)');
  }
  const client = new ServiceClient({ baseUrl: profile.baseUrl, apiKey: key });
  try {
    const account = await client.getAccount();
    const service = sandbox ? 'sandbox' : profile.baseUrl;
    if (g.json) {
      printJson({ service, ...account });
    } else {
      const usd = account.balanceUsd === null ? 'unknown' : `$${account.balanceUsd.toFixed(2)}`;
      const credits = account.credits === null ? '' : ` (${account.credits.toLocaleString('en-US')} credits)`;
      const name = account.accountName ? ` for ${account.accountName}` : '';
      printOut(`Balance${name} at ${service}: ${usd}${credits}\n`);
    }
    return EXIT.ok;
  } finally {
    await client.close();
    await sandbox?.stop();
  }
}
