/** The settings in electron-store: the same file, schema and checks as the Node (conf) store. */
import ElectronStore from 'electron-store';
import { ConfSettingsFile } from '../../core/settings/index.ts';

export function createElectronSettingsFile(userDataDir: string): ConfSettingsFile {
  return new ConfSettingsFile(
    userDataDir,
    (options) =>
      new ElectronStore<Record<string, unknown>>({
        name: options.configName,
        cwd: options.cwd,
        schema: options.schema as never,
        defaults: options.defaults as unknown as Record<string, unknown>,
        clearInvalidConfig: false,
        configFileMode: options.configFileMode, // 0600
      }),
  );
}
