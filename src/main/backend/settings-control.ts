/**
 * Settings changes and what they set in motion: the library the engine works on (demo mode
 * has its own), how many tasks run at once, the service and the key it is sent with, and the
 * budget, which the library keeps. A change that would send the stored key to another origin
 * waits for the user's word in a dialog main owns.
 */
import { join, resolve } from 'node:path';
import type { Settings, SettingsUpdate, StudioSettings } from '../../shared/index.ts';
import { DEMO_LIBRARY_FOLDER } from '../library/index.ts';
import type { BoundKey, SettingsFile } from '../settings/index.ts';
import type { ApiKey } from './api-key.ts';
import type { Dialogs } from './backend-ports.ts';
import { StudioCallError } from './call-errors.ts';
import type { EngineHost } from './engine-host.ts';
import { chooseService } from './service-selection.ts';
import type { ServiceSwitch } from './service-switch.ts';

export interface SettingsControlParts {
  userDataDir: string;
  settings: SettingsFile;
  dialogs: Dialogs;
  key: ApiKey;
  host: EngineHost;
  service: ServiceSwitch;
}

export class SettingsControl {
  readonly #parts: SettingsControlParts;

  constructor(parts: SettingsControlParts) {
    this.#parts = parts;
  }

  /**
   * Opens the library the settings call for and points it at its service. A budget an earlier
   * version kept in the settings file moves into that library.
   */
  async start(): Promise<void> {
    const { settings, key, host } = this.#parts;
    key.stored = (await key.read()) !== null;
    const s = settings.get();
    await host.open(this.#libraryDirOf(s), s.maxActiveRemote);
    const legacyBudget = settings.legacyBudget();
    if (legacyBudget !== undefined) {
      host.engine.setBudget(legacyBudget);
      settings.dropLegacyBudget();
    }
    await this.applyService();
  }

  view(): StudioSettings {
    const { settings, key, host } = this.#parts;
    const s = settings.get();
    return {
      ...s,
      modelOverrides: { ...s.modelOverrides },
      libraryDir: this.#configuredLibraryDir(s),
      libraryInUse: host.libraryDir,
      demoLibrary: host.libraryDir === this.#demoLibraryDir(),
      budgetMicros: host.engine.budget(),
      hasApiKey: key.stored,
      keyProblem: key.stored ? key.problem : null,
      keyStorage: key.storage(),
    };
  }

  /**
   * Writes settings (the library first when the library folder changes; the budget into the
   * library then in use) and points the engine at the service they call for.
   */
  async update(update: SettingsUpdate): Promise<void> {
    const { settings, key, host } = this.#parts;
    const { budgetMicros, ...patch } = definedFields(update);
    const after = { ...settings.get(), ...patch };
    const rebind = await this.#confirmKeyDestination(after);
    const libraryDir = this.#libraryDirOf(after);
    if (libraryDir !== host.libraryDir)
      await host.reopen(libraryDir, after.maxActiveRemote, () => this.applyService(false));
    else host.setMaxActiveRemote(after.maxActiveRemote);
    settings.update(patch);
    if (rebind) await key.write(rebind);
    if (budgetMicros !== undefined) host.engine.setBudget(budgetMicros);
    await this.applyService(true, rebind ?? undefined);
  }

  async setApiKey(apiKey: string): Promise<void> {
    const { settings, key } = this.#parts;
    // a stored key means the user wants the real service: leave the demo; the key is tied to
    // the service it is stored for
    const after = { ...settings.get(), firstRun: false, demoMode: false };
    const bound = { key: apiKey, origin: this.#parts.service.remoteOriginOf(after) };
    await key.write(bound);
    settings.update({ firstRun: false, demoMode: false });
    await this.applyService(true, bound);
  }

  async clearApiKey(): Promise<void> {
    await this.#parts.key.clear();
    await this.applyService();
  }

  /**
   * Points the engine at the service the settings call for, on the library that service uses
   * (demo mode has its own) unless `switchLibrary` is false. `known`: the key just stored.
   */
  async applyService(switchLibrary = true, known?: BoundKey): Promise<void> {
    const { settings, host, service } = this.#parts;
    const s = settings.get();
    const libraryDir = this.#libraryDirOf(s);
    if (switchLibrary && libraryDir !== host.libraryDir)
      await host.reopen(libraryDir, s.maxActiveRemote, () => this.applyService(false));
    await service.apply(host.engine, s, known);
  }

  /**
   * A settings change that would send the stored key to another origin needs the user's word,
   * asked in a dialog main owns (the page cannot answer it). Gives the key to store again, tied
   * to the new origin, when the user agrees; throws when they do not.
   */
  async #confirmKeyDestination(after: Settings): Promise<BoundKey | null> {
    const { key, dialogs } = this.#parts;
    if (!key.stored) return null;
    const bound = await key.read();
    const to = this.#parts.service.remoteOriginOf(after);
    if (!bound || bound.origin === null || to === null || to === bound.origin) return null;
    const agreed = await dialogs.confirm({
      title: 'Send your API key to another service?',
      message: `Your API key was stored for ${bound.origin}. From now on it would be sent to ${to}. Do this only if you trust that address.`,
      confirmLabel: 'Send it there',
    });
    if (!agreed) {
      throw new StudioCallError(
        'not-confirmed',
        `the service address was not changed: your API key stays with ${bound.origin} (store the key again to use it elsewhere)`,
      );
    }
    return { key: bound.key, origin: to };
  }

  /**
   * The library the engine works on. Demo mode keeps its own library (`demo-library` in the
   * user-data folder), so sandbox tasks and results never mix with paid ones, and switching
   * demo mode off never leaves sandbox tasks to be polled at the real service.
   */
  #libraryDirOf(s: Settings): string {
    if (chooseService(s, this.#parts.key.stored) === 'sandbox') return this.#demoLibraryDir();
    return this.#configuredLibraryDir(s);
  }

  #demoLibraryDir(): string {
    return resolve(this.#parts.userDataDir, DEMO_LIBRARY_FOLDER);
  }

  /** The library folder the user chose (or the default one), used whenever demo mode is off. */
  #configuredLibraryDir(s: Settings): string {
    const { userDataDir } = this.#parts;
    return resolve(s.libraryDir === '' ? join(userDataDir, 'library') : s.libraryDir);
  }
}

/** The fields of an update that are given (a field sent as undefined changes nothing). */
function definedFields(update: SettingsUpdate): SettingsUpdate {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
}
