/**
 * Runs an Electron app's built main file on plain Node against the stand-in `electron` module:
 *
 *   node test/electron/stand-in/run-app.ts <app folder> <main file> [--user-data-dir=DIR]
 *
 * `electron` (and `electron/main`) resolve to stand-in/electron.ts through a module.registerHooks
 * resolve hook (in-thread, so both `import` and `require` are covered, for the app and for
 * libraries such as electron-store). Then this does what Electron's lib/browser/init.ts does
 * around the app: process.exit is mapped to app.exit, an uncaught exception shows an error box
 * instead of ending the process, the app's main file is imported, and only after that import
 * has settled (the entry module fully evaluated, as `appCodeLoaded` in Electron) does `ready`
 * come, on a later task. SIGTERM, SIGINT and SIGHUP quit the app gracefully, as in Electron on
 * POSIX. Settings come from the environment (see runtime.ts); the record goes
 * to the test over the IPC channel (driver.ts) and to STAND_IN_LOG at exit.
 */
import { registerHooks } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { configFrom, configure, notify, record, startMessageLoop } from './runtime.ts';

const STAND_IN_URL = new URL('./electron.ts', import.meta.url).href;
const STAND_IN_DIR = dirname(fileURLToPath(import.meta.url));
const MAIN_PROCESS_SPECIFIERS = new Set(['electron', 'electron/main', 'electron/common']);

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (MAIN_PROCESS_SPECIFIERS.has(specifier)) return { url: STAND_IN_URL, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

/**
 * Makes the app's own code (frames in `appDir`'s built files) see `platform`, while Node and
 * libraries (sharp picks its native build by platform) keep seeing the real one.
 */
function emulatePlatform(platform: NodeJS.Platform, appCodeDir: string): void {
  const real = process.platform;
  if (platform === real) return;
  Object.defineProperty(process, 'platform', {
    configurable: true,
    enumerable: true,
    get() {
      const frames = (new Error().stack ?? '').split('\n').slice(2);
      const caller = frames.find((f) => !f.includes(STAND_IN_DIR)) ?? '';
      return caller.includes(appCodeDir) ? platform : real;
    },
  });
}

const [appArg, mainArg, ...switches] = process.argv.slice(2);
if (!appArg || !mainArg) {
  process.stderr.write('usage: node run-app.ts <app folder> <main file> [--user-data-dir=DIR]\n');
  process.exit(2);
}
const appDir = resolve(appArg);
const mainFile = resolve(mainArg);
const cfg = configFrom(process.env, appDir, mainFile, switches);
configure(cfg);
// Electron's process.argv: the executable, the app folder, then the switches
process.argv.splice(1, process.argv.length - 1, appDir, ...switches);
emulatePlatform(cfg.platform, dirname(mainFile));

const { app } = await import('./app.ts');
const { dialog } = await import('./desktop.ts');
const { startDriver } = await import('./driver.ts');

// lib/browser/init.ts: don't quit on a fatal error, show it (unless the app listens itself)
process.on('uncaughtException', (error) => {
  record('note', 'uncaught-exception', { error: error?.stack ?? String(error) });
  if (process.listenerCount('uncaughtException') > 1) return;
  const message = `Uncaught Exception:\n${error?.stack ?? `${error?.name}: ${error?.message}`}`;
  dialog.showErrorBox('A JavaScript error occurred in the main process', message);
});
// lib/browser/init.ts: map process.exit to app.exit, which quits gracefully
process.exit = ((code?: number | string | null) => {
  if (code !== undefined && code !== null) process.exitCode = code;
  app.exit(Number(process.exitCode ?? 0) || 0);
}) as typeof process.exit;

// electron_browser_main_parts_posix.cc: SIGTERM, SIGINT and SIGHUP quit gracefully (Browser::Quit)
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    record('action', `signal ${signal}`);
    app.quitNow();
  });
}

startDriver();
startMessageLoop();
record('note', 'app-loading', { appDir, mainFile, platform: cfg.platform });
try {
  await import(pathToFileURL(mainFile).href);
} catch (err) {
  process.emit('uncaughtException', err as Error);
}
notify('app-code-loaded');
setImmediate(() => app.finishLaunching());
