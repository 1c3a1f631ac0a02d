/**
 * The settings file of tests and the browser harness: the app's ConfSettingsFile over conf
 * on plain Node (the app passes electron-store, which is conf with Electron's paths), so the
 * file, its schema and its checks are the app's.
 */
import Conf from 'conf';
import { ConfSettingsFile } from '../../src/core/settings/index.ts';

export function createNodeSettingsFile(userDataDir: string): ConfSettingsFile {
  return new ConfSettingsFile(
    userDataDir,
    (options) =>
      new Conf<Record<string, unknown>>({
        cwd: options.cwd,
        configName: options.configName,
        schema: options.schema as never,
        defaults: options.defaults as unknown as Record<string, unknown>,
        clearInvalidConfig: false,
        configFileMode: options.configFileMode,
      }),
  );
}
