/**
 * Settings changes and what they set in motion: the library the engine works on (demo mode
 * has its own), how many tasks run at once, the service and the key it is sent with, and the
 * budget, which the library keeps. A change that would send the stored key to an address it is
 * not tied to, and storing it without real encryption, wait for the user's word in a dialog
 * main owns (key-questions.ts).
 */
import { join, resolve } from 'node:path';
import { DEMO_LIBRARY_FOLDER } from '../../core/library/index.ts';
import {
  type BoundKey,
  type KeyAddress,
  type SettingsFile,
  unconfirmedAddresses,
} from '../../core/settings/index.ts';
import type { Settings, SettingsUpdate, StudioSettings } from '../../shared/index.ts';
import type { ApiKey } from './api-key.ts';
import type { Dialogs } from './backend-ports.ts';
import { StudioCallError } from './call-errors.ts';
import type { EngineHost } from './engine-host.ts';
import { refuseKeyTheServiceRefuses } from './key-check.ts';
import { addressList, keyAddressesQuestion, PageQuestions, WEAK_STORAGE_QUESTION } from './key-questions.ts';
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
  readonly #questions: PageQuestions;

  constructor(parts: SettingsControlParts) {
    this.#parts = parts;
    this.#questions = new PageQuestions(parts.dialogs);
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
      keyAddressesToConfirm: key.stored && key.toConfirm ? [...key.toConfirm] : null,
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
    const rebind = await this.#confirmKeyAddresses(settings.get(), after);
    const libraryDir = this.#libraryDirOf(after);
    if (libraryDir !== host.libraryDir)
      await host.reopen(libraryDir, after.maxActiveRemote, () => this.applyService(false));
    else host.setMaxActiveRemote(after.maxActiveRemote);
    settings.update(patch);
    if (rebind) await key.write(rebind);
    if (budgetMicros !== undefined) host.engine.setBudget(budgetMicros);
    await this.applyService(true, rebind ?? undefined);
  }

  /**
   * Stores the key, tied to every address the settings send it to, unless the service refuses
   * it (then nothing changes). Where Linux has no keyring the user is asked first, in a dialog
   * main owns, unless a key is already kept that way.
   */
  async setApiKey(apiKey: string): Promise<void> {
    const { settings, key } = this.#parts;
    // a key the service refuses is not kept: the key in use, or demo mode, stays (key-check.ts)
    await refuseKeyTheServiceRefuses(this.#parts.service.remoteBaseUrlOf(settings.get()), apiKey);
    if (key.storage() === 'weak' && !key.stored && !(await this.#questions.ask(WEAK_STORAGE_QUESTION))) {
      throw new StudioCallError(
        'weak-storage',
        'the API key was not stored: no system keyring is available, so it would be kept without real encryption, and you chose not to',
        'key',
      );
    }
    // a stored key means the user wants the real service: leave the demo
    const after = { ...settings.get(), firstRun: false, demoMode: false };
    const addresses = this.#parts.service.remoteAddressesOf(after) ?? [];
    const bound = { key: apiKey, addresses: addresses.map((a) => a.url) };
    await key.write(bound);
    settings.update({ firstRun: false, demoMode: false });
    await this.applyService(true, bound);
  }

  /**
   * Ties the stored key to the addresses the settings send it to now (a key stored by an
   * earlier version, or addresses written into the settings file elsewhere), once the user
   * agrees in a dialog main owns that names every address.
   */
  async confirmKeyAddresses(): Promise<void> {
    const { settings, key } = this.#parts;
    const bound = key.stored ? await key.read() : null;
    if (!bound) throw new StudioCallError('not-found', 'no API key is stored: store one first');
    const wanted = this.#parts.service.remoteAddressesOf(settings.get());
    if (!wanted)
      throw new StudioCallError('not-configured', 'no service address is set yet, so the key goes nowhere');
    if (unconfirmedAddresses(bound, wanted).length === 0) return;
    const rebind = await this.#askToSend(bound, wanted);
    await key.write(rebind);
    await this.applyService(true, rebind);
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
   * A settings change that would send the stored key to an address it is not tied to (any of
   * them: tasks, balance, uploads; another path on the same host too) needs the user's word,
   * asked in a dialog main owns that shows every address in full (the page can neither see nor
   * answer it). Gives the key to store again, tied to the new addresses, when the user agrees;
   * throws when they do not. A change that leaves the addresses as they were asks nothing.
   */
  async #confirmKeyAddresses(before: Settings, after: Settings): Promise<BoundKey | null> {
    const { key, service } = this.#parts;
    if (!key.stored) return null;
    const wanted = service.remoteAddressesOf(after);
    if (!wanted || sameAddresses(wanted, service.remoteAddressesOf(before))) return null;
    const bound = await key.read();
    if (!bound || unconfirmedAddresses(bound, wanted).length === 0) return null;
    return this.#askToSend(bound, wanted);
  }

  async #askToSend(bound: BoundKey, wanted: readonly KeyAddress[]): Promise<BoundKey> {
    if (!(await this.#questions.ask(keyAddressesQuestion(wanted, bound)))) {
      const kept = bound.addresses?.length
        ? `your API key stays with ${addressList(bound.addresses)}`
        : 'your API key is not sent there';
      throw new StudioCallError('not-confirmed', `nothing was changed: ${kept}`);
    }
    return { key: bound.key, addresses: wanted.map((a) => a.url) };
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

function sameAddresses(a: readonly KeyAddress[], b: readonly KeyAddress[] | null): boolean {
  return b !== null && a.length === b.length && a.every((x, i) => x.url === b[i]?.url);
}

/** The fields of an update that are given (a field sent as undefined changes nothing). */
function definedFields(update: SettingsUpdate): SettingsUpdate {
  return Object.fromEntries(Object.entries(update).filter(([, value]) => value !== undefined));
}
