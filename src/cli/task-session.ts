/**
 * The engine session of a task command: the engine opened on the library (with an in-process
 * sandbox as the service under --sandbox), closed when the command is done; tasks left running
 * resume next time.
 */
import { LibraryReading, TaskEngine, type TaskFileReading } from '../core/engine/index.ts';
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

/** What a command that only reads a task.json or a result file against the library needs. */
export interface ReadSession {
  readTaskFile(file: string): Promise<TaskFileReading>;
  close(): Promise<void>;
}

/**
 * Opens the library only to read (no lock: the app may have it open), when it holds this build's
 * schema; else (no library yet, or one to migrate) as openSession with no service, which makes or
 * migrates it and is refused while another process has it open.
 */
export async function openToRead(g: GlobalOptions, env: NodeJS.ProcessEnv): Promise<ReadSession> {
  const reading =
    localPathProblem(g.library) === null
      ? LibraryReading.open({ libraryDir: g.library, profile: profileOfOptions(g, null) })
      : null;
  if (reading)
    return {
      readTaskFile: (file) => reading.readTaskFile(file),
      close: async () => reading.close(),
    };
  const session = await openSession(g, env, { libraryOnly: true });
  return { readTaskFile: (file) => session.engine.readTaskFile(file), close: () => session.close() };
}

/** A task of the library by its local id or the service's id. */
export function findTask(engine: TaskEngine, id: string): Task {
  const task = engine.store.getTask(id) ?? engine.store.getTaskByRemoteId(id);
  if (!task) throw new UsageError(`no task "${id}" in the library`);
  return task;
}
