/**
 * The engine session of a task command: the engine opened on the library (with an in-process
 * sandbox as the service under --sandbox), closed when the command is done; tasks left running
 * resume next time. A command that only reads opens the library to read instead (openToRead), so
 * it answers while the app has it open.
 */
import { type LibraryReader, LibraryReading, TaskEngine } from '../core/engine/index.ts';
import { localPathProblem } from '../core/inputs/index.ts';
import { type Sandbox, startSandbox } from '../sandbox/index.ts';
import type { Task } from '../shared/index.ts';
import { UsageError } from './cli-args.ts';
import { apiKeyFromEnv, type GlobalOptions, profileOfOptions } from './global-options.ts';
import { checkLibraryFolder } from './library-folder-check.ts';
import { printErr } from './terminal-output.ts';

export interface Session {
  engine: TaskEngine;
  sandbox: Sandbox | null;
  close(): Promise<void>;
}

/**
 * Opens the engine on the library. With `libraryOnly`, no service is set (and no sandbox started)
 * whatever the options and environment say, so nothing is sent while the command runs.
 */
export async function openSession(
  g: GlobalOptions,
  env: NodeJS.ProcessEnv,
  { libraryOnly = false }: { libraryOnly?: boolean } = {},
): Promise<Session> {
  const sandbox =
    g.sandbox && !libraryOnly
      ? await startSandbox({ apiKey: 'demo-key', timeScale: g.timeScale ?? 0.1 })
      : null;
  const profile = profileOfOptions(g, sandbox?.url ?? null);
  const key = libraryOnly ? null : sandbox ? 'demo-key' : apiKeyFromEnv(env);
  const service = key ? { baseUrl: profile.baseUrl, apiKey: key, uploadUrl: profile.uploadUrl } : null;
  let engine: TaskEngine;
  try {
    checkLibraryFolder(g.library);
    // the engine's log lines quote what a library file holds: printed like every other line
    const log = (line: string) => printErr(`${line}\n`);
    engine = await TaskEngine.open({ libraryDir: g.library, service, profile, log });
  } catch (err) {
    await sandbox?.stop();
    throw err;
  }
  return {
    engine,
    sandbox,
    async close() {
      await engine.close();
      await sandbox?.stop();
    },
  };
}

/**
 * What a command that only reads the library has open: `reader`, the library read beside whoever
 * holds it (no lock), or the engine when there was nothing to read beside (see openToRead).
 */
export interface ReadSession {
  reader: LibraryReader;
  /**
   * The engine that opened the library, when it had to (no library yet, or one to migrate): it
   * holds the lock and its opening may have started retention's daily run; null beside the app.
   */
  engine: TaskEngine | null;
  close(): Promise<void>;
}

/**
 * Opens the library only to read (no lock: the app may have it open, and nothing is started:
 * recovery, retention's run, the purge and the service are the holder's), when it holds this
 * build's schema; else (no library yet, or one to migrate) as openSession with no service, which
 * makes or migrates it and is refused while another process has it open.
 */
export async function openToRead(g: GlobalOptions, env: NodeJS.ProcessEnv): Promise<ReadSession> {
  const log = (line: string) => printErr(`${line}\n`);
  const reading =
    localPathProblem(g.library) === null
      ? LibraryReading.open({ libraryDir: g.library, profile: profileOfOptions(g, null), log })
      : null;
  if (reading) return { reader: reading, engine: null, close: async () => reading.close() };
  const session = await openSession(g, env, { libraryOnly: true });
  return { reader: session.engine, engine: session.engine, close: () => session.close() };
}

/** A task of the library by its local id or the service's id. */
export function findTask({ store }: Pick<LibraryReader, 'store'>, id: string): Task {
  const task = store.getTask(id) ?? store.getTaskByRemoteId(id);
  if (!task) throw new UsageError(`no task "${id}" in the library`);
  return task;
}
