/**
 * Where the library lives by default: the same folder the desktop app uses (Electron's
 * `userData` for "Media Task Studio", plus `library`), so the CLI and the app share it.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'Media Task Studio';

/** Demo mode (the built-in sandbox) keeps its results here, apart from paid ones. */
export const DEMO_LIBRARY_FOLDER = 'demo-library';

export function defaultUserDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}

export function defaultLibraryDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.MEDIA_TASK_LIBRARY || join(defaultUserDataDir(process.platform, env), 'library');
}

/** The library of demo mode: sandbox tasks never mix with the user's paid ones. */
export function defaultDemoLibraryDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultUserDataDir(process.platform, env), DEMO_LIBRARY_FOLDER);
}
