/**
 * A SettingsFile over a conf-style store (conf on Node, electron-store in the app, which is
 * conf with Electron's paths): one JSON file `settings.json` in the user-data folder, written
 * atomically, validated by a JSON schema. The file is checked before conf opens it, so a
 * file edited by hand into invalid JSON or invalid values gives the defaults and a warning,
 * never a crash (invalid JSON is kept beside it as `settings.json.corrupt-<time>`). The file is
 * owner-only (0600: conf's `configFileMode`, applied on every write) in an owner-only folder (0700).
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/index.ts';
import {
  checkSettingsPatch,
  readPersistedSettings,
  SETTINGS_FILE_NAME,
  SETTINGS_JSON_SCHEMA,
} from './settings-file.ts';
import type { SettingsFile } from './settings-ports.ts';

/** The part of conf / electron-store this store uses. */
export interface ConfLike {
  readonly store: Record<string, unknown>;
  set(values: Record<string, unknown>): void;
  delete(key: string): void;
}

/** Mode of the settings file (and of the other private files in the user-data folder). */
export const PRIVATE_CONFIG_FILE_MODE = 0o600;
/** Mode the user-data folder is created with. */
export const PRIVATE_CONFIG_FOLDER_MODE = 0o700;

export interface ConfOpenOptions {
  cwd: string;
  configName: string;
  /** The JSON schema of each field (conf's `schema` option). */
  schema: Readonly<Record<string, unknown>>;
  defaults: Settings;
  /** Pass on as conf's `configFileMode`: the file gets this mode on every write. */
  configFileMode: number;
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
  const { settings, warnings, budgetMicros, overrideKeysRead } = readPersistedSettings(
    raw,
    `the settings file ${file}`,
  );
  if (warnings.length > 0 || overrideKeysRead) {
    // an earlier version's budget stays until the backend has moved it into the library; a
    // file that is only re-keyed keeps all it holds
    const kept =
      warnings.length === 0
        ? { ...(raw as Record<string, unknown>), modelOverrides: overrideKeysRead }
        : budgetMicros === undefined
          ? settings
          : { ...settings, budgetMicros };
    const tmp = `${file}.tmp-${process.pid}`;
    rmSync(tmp, { force: true });
    // a new owner-only file: never written through a link or a file left at the temporary name
    writeFileSync(tmp, `${JSON.stringify(kept, null, '\t')}\n`, {
      flag: 'wx',
      mode: PRIVATE_CONFIG_FILE_MODE,
    });
    renameSync(tmp, file);
  }
  return warnings;
}

export class ConfSettingsFile implements SettingsFile {
  readonly #conf: ConfLike;
  readonly #warnings: string[];
  #last: Settings;

  constructor(userDataDir: string, open: OpenConf) {
    const file = join(userDataDir, `${SETTINGS_FILE_NAME}.json`);
    mkdirSync(userDataDir, { recursive: true, mode: PRIVATE_CONFIG_FOLDER_MODE });
    this.#warnings = repairSettingsFile(file);
    const options: ConfOpenOptions = {
      cwd: userDataDir,
      configName: SETTINGS_FILE_NAME,
      schema: SETTINGS_JSON_SCHEMA,
      defaults: { ...DEFAULT_SETTINGS },
      configFileMode: PRIVATE_CONFIG_FILE_MODE,
    };
    let conf: ConfLike;
    try {
      conf = open(options);
    } catch (err) {
      // changed between the check and the open, or refused by conf's own schema check
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

  get(): Settings {
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

  update(patch: Partial<Settings>): Settings {
    const checked = checkSettingsPatch(patch);
    if (Object.keys(checked).length > 0) this.#conf.set(checked as Record<string, unknown>);
    return this.get();
  }

  warnings(): readonly string[] {
    return [...this.#warnings];
  }

  legacyBudget(): number | null | undefined {
    try {
      return readPersistedSettings(this.#conf.store).budgetMicros;
    } catch {
      return undefined;
    }
  }

  dropLegacyBudget(): void {
    if ('budgetMicros' in this.#conf.store) this.#conf.delete('budgetMicros');
  }

  #warn(message: string): void {
    if (this.#warnings.includes(message)) return;
    this.#warnings.push(message);
  }
}
