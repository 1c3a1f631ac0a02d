/**
 * `media-task history [--family F] [--since DATE] [--until DATE] [--state S] [--page N]`: a page
 * of the account's task history (tasks made anywhere: the vendor's web workspace, another
 * computer, this app), newest first, each with the library task that holds it; `import ID...`
 * brings in those it does not (import-command.ts).
 */
import { AccountHistoryQuerySchema, HISTORY_STATES, historyFamilies } from '../shared/index.ts';
import { readArgs, UsageError, VALUE } from './cli-args.ts';
import { EXIT } from './exit-codes.ts';
import type { GlobalOptions } from './global-options.ts';
import { printJson } from './task-printing.ts';
import { openSession } from './task-session.ts';
import { printOut } from './terminal-output.ts';

const USAGE =
  'usage: media-task history [--family F] [--since YYYY-MM-DD] [--until YYYY-MM-DD] [--state S] [--page N]';

/** The query the options ask for, or a UsageError naming the option that is wrong. */
function queryOf(values: Record<string, string | boolean | undefined>) {
  const page = values.page === undefined ? 1 : Number(values.page);
  const parsed = AccountHistoryQuerySchema.safeParse({
    page,
    ...(values.family === undefined ? {} : { family: values.family }),
    ...(values.since === undefined ? {} : { since: values.since }),
    ...(values.until === undefined ? {} : { until: values.until }),
    ...(values.state === undefined ? {} : { state: values.state }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const option = String(issue?.path[0] ?? 'page');
  const given = String(values[option] ?? '');
  const wanted: Record<string, string> = {
    page: 'a page number from 1',
    family: `a family such as ${historyFamilies().join(', ')}`,
    since: 'a date as YYYY-MM-DD',
    until: 'a date as YYYY-MM-DD',
    state: `one of ${HISTORY_STATES.join(', ')}`,
  };
  throw new UsageError(`--${option} "${given}" is not ${wanted[option] ?? 'valid'}`);
}

export async function runHistory(g: GlobalOptions, argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = readArgs(argv, {
    family: VALUE,
    since: VALUE,
    until: VALUE,
    state: VALUE,
    page: VALUE,
  });
  if (positionals.length > 0) throw new UsageError(USAGE);
  const query = queryOf(values);
  const session = await openSession(g, env);
  try {
    if (!session.engine.status().serviceConfigured) {
      throw new UsageError('history needs a service: set MEDIA_TASK_API_KEY and --base-url');
    }
    const page = await session.engine.history(query);
    if (g.json) {
      printJson(page);
      return EXIT.ok;
    }
    if (page.rows.length === 0) printOut(`No tasks on page ${page.page} of the account's history.\n`);
    const width = Math.max(0, ...page.rows.map((r) => r.remoteId.length));
    for (const r of page.rows) {
      const held = r.inLibrary ? `in library as ${r.inLibrary}` : 'not in library';
      const what = `${r.model ?? '?'} ${r.taskType ?? '?'}`;
      printOut(
        `${r.remoteId.padEnd(width)}  ${(r.createdAt ?? 'unknown time').slice(0, 19).replace('T', ' ')}  ${(r.status ?? '?').padEnd(10)} ${what}  ${held}\n`,
      );
    }
    const total = page.total === null ? '' : ` (${page.total} tasks in all)`;
    const more = page.hasMore ? `; the next with --page ${page.page + 1}` : '';
    if (page.rows.length > 0)
      printOut(`page ${page.page}${total}${more}; bring tasks in with: media-task import ID...\n`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}
