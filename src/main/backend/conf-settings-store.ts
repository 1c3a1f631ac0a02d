/**
 * A SettingsStore over a conf-style store (conf on Node, electron-store in the app, which is
 * conf with Electron's paths): one JSON file `settings.json` in the user-data folder, written
 * atomically, validated by a JSON schema. The file is checked before the store opens it, so a
 * file edited by hand into invalid JSON or invalid values gives the defaults and a warning,
 * never a crash (invalid JSON is kept beside it as `settings.json.corrupt-<time>`).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Conf from 'conf';
import type { SettingsStore } from './backend-ports.ts';
import {
  checkSettingsPatch,
  DEFAULT_SETTINGS,
  type PersistedSettings,
  readPersistedSettings,
  SETTINGS_FILE_NAME,
  SETTINGS_JSON_SCHEMA,
} from './persisted-settings.ts';

/** The part of conf / electron-store this store uses. */
export interface ConfLike {
  readonly store: Record<string, unknown>;
  set(values: Record<string, unknown>): void;
}

export interface ConfOpenOptions {
  cwd: string;
  configName: string;
  schema: typeof SETTINGS_JSON_SCHEMA;
  defaults: PersistedSettings;
}

export type OpenConf = (options: ConfOpenOptions) => ConfLike;

/** Repairs the file in place before conf reads it; returns what was wrong with it. */
export function repairSettingsFile(file: string, now: () => number = Date.now): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    return [`the settings file ${file} could not be read (${(err as Error).message}); the defaults are used`];
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    const aside = `${file}.corrupt-${now()}`;
    renameSync(file, aside);
    return [
      `the settings file ${file} was not valid JSON; it was moved to ${aside} and the defaults are used`,
    ];
  }
  const { settings, warnings } = readPersistedSettings(raw, `the settings file ${file}`);
  if (warnings.length > 0) {
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify(settings, null, '\t')}\n`);
    renameSync(tmp, file);
  }
  return warnings;
}

export class ConfSettingsStore implements SettingsStore {
  readonly #conf: ConfLike;
  readonly #warnings: string[];
  #last: PersistedSettings;

  constructor(userDataDir: string, open: OpenConf) {
    const file = join(userDataDir, `${SETTINGS_FILE_NAME}.json`);
    this.#warnings = repairSettingsFile(file);
    const options: ConfOpenOptions = {
      cwd: userDataDir,
      configName: SETTINGS_FILE_NAME,
      schema: SETTINGS_JSON_SCHEMA,
      defaults: { ...DEFAULT_SETTINGS },
    };
    let conf: ConfLike;
    try {
      conf = open(options);
    } catch (err) {
      // changed between the check and the open, or refused by the store's own schema check
      const aside = `${file}.corrupt-${Date.now()}`;
      try {
        renameSync(file, aside);
      } catch {
        // nothing to move
      }
      this.#warnings.push(
        `the settings file could not be opened (${(err as Error).message}); moved to ${aside}`,
      );
      conf = open(options);
    }
    this.#conf = conf;
    this.#last = { ...DEFAULT_SETTINGS };
    this.#last = this.get();
  }

  get(): PersistedSettings {
    try {
      const { settings, warnings } = readPersistedSettings(this.#conf.store);
      for (const w of warnings) this.#warn(w);
      this.#last = settings;
    } catch (err) {
      this.#warn(
        `the settings could not be read (${(err as Error).message}); the last good settings are used`,
      );
    }
    return { ...this.#last };
  }

  update(patch: Partial<PersistedSettings>): PersistedSettings {
    const checked = checkSettingsPatch(patch);
    if (Object.keys(checked).length > 0) this.#conf.set(checked as Record<string, unknown>);
    return this.get();
  }

  warnings(): readonly string[] {
    return [...this.#warnings];
  }

  #warn(message: string): void {
    if (this.#warnings.includes(message)) return;
    this.#warnings.push(message);
  }
}

/** The Node implementation: conf with the settings file in `userDataDir`. */
export function createNodeSettingsStore(userDataDir: string): ConfSettingsStore {
  return new ConfSettingsStore(
    userDataDir,
    (options) =>
      new Conf<Record<string, unknown>>({
        cwd: options.cwd,
        configName: options.configName,
        schema: options.schema as never,
        defaults: options.defaults as unknown as Record<string, unknown>,
        clearInvalidConfig: false,
      }),
  );
}
