/**
 * Which service the engine talks to, from the settings and whether a key is stored:
 * - the built-in sandbox in demo mode, and on the first run while no key is set (so a new user
 *   can try everything at once);
 * - the real service when a key is set, demo mode is off and a base URL is configured;
 * - otherwise none: tasks are queued locally until the user sets things up.
 */
import type { PersistedSettings } from './persisted-settings.ts';

export type ServiceChoice = 'sandbox' | 'remote' | 'none';

export function chooseService(
  settings: Pick<PersistedSettings, 'demoMode' | 'firstRun' | 'baseUrl'>,
  hasApiKey: boolean,
): ServiceChoice {
  if (settings.demoMode) return 'sandbox';
  if (!hasApiKey) return settings.firstRun ? 'sandbox' : 'none';
  return settings.baseUrl === '' ? 'none' : 'remote';
}
