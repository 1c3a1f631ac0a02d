/**
 * What the command line takes from the desktop app's settings file (`settings.json` in the app's
 * user-data folder, zod-checked as the app reads it): only the task types the user said not to
 * ask about again ("Don't ask again for …", `unknownPriceAccepted`), so `create` queues them
 * under a budget without --accept-unknown-price, as the window does. Read only: the CLI never
 * writes or repairs the app's file; one it cannot read is said and left out.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskDraft } from '../core/engine/index.ts';
import { defaultUserDataDir } from '../core/library/index.ts';
import { readPersistedSettings, SETTINGS_FILE_NAME } from '../core/settings/index.ts';
import { catalogEntry, entryById, type Task } from '../shared/index.ts';
import { printErr } from './terminal-output.ts';

/** The entry ids of the app's "Don't ask again for …" (none when the app has no settings file). */
export function unknownPriceAccepted(env: NodeJS.ProcessEnv): readonly string[] {
  const file = join(defaultUserDataDir(process.platform, env), `${SETTINGS_FILE_NAME}.json`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      printErr(
        `the app's settings file ${file} could not be read (${(err as Error).message}); its "Don't ask again" choices are not used\n`,
      );
    return [];
  }
  const { settings, warnings } = readPersistedSettings(raw, `the app's settings file ${file}`);
  for (const warning of warnings) printErr(`${warning}\n`);
  return settings.unknownPriceAccepted;
}

/**
 * Marks the drafts whose task type the app's settings accept without a known price; returns the
 * entry ids it marked. A draft already accepted (--accept-unknown-price) is left as it is.
 */
export function acceptAsTheAppDoes(drafts: readonly TaskDraft[], accepted: readonly string[]): Set<string> {
  const marked = new Set<string>();
  for (const draft of drafts) {
    if (draft.acceptUnknownPrice) continue;
    const entry = catalogEntry(draft.model, draft.taskType);
    if (entry && accepted.includes(entry.id)) {
      draft.acceptUnknownPrice = true;
      marked.add(entry.id);
    }
  }
  return marked;
}

/** The line said for each queued task type that went without a known price by the app's choice. */
export function acceptedByTheAppLines(tasks: readonly Task[], marked: ReadonlySet<string>): string[] {
  const said = new Set<string>();
  for (const task of tasks) {
    if (task.estimateMicros !== null || task.entryId === null || !marked.has(task.entryId)) continue;
    said.add(
      `queued without a known price: the app's settings say "Don't ask again for ${entryById(task.entryId)?.label ?? task.entryId}" (Ask again, in Settings › Budget, undoes it)\n`,
    );
  }
  return [...said];
}
