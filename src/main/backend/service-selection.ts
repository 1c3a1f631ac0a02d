/**
 * Which service the engine talks to, from the settings and whether a key is stored:
 * - the built-in sandbox in demo mode, which is on by default (so a new user can try everything
 *   at once) and is turned off when the user stores an API key;
 * - the real service when demo mode is off, a key is set and a base URL is configured;
 * - otherwise none: tasks are queued locally until the user sets things up.
 */
import type { PersistedSettings } from './persisted-settings.ts';

export type ServiceChoice = 'sandbox' | 'remote' | 'none';

export function chooseService(
  settings: Pick<PersistedSettings, 'demoMode' | 'baseUrl'>,
  hasApiKey: boolean,
): ServiceChoice {
  if (settings.demoMode) return 'sandbox';
  if (!hasApiKey) return 'none';
  return settings.baseUrl === '' ? 'none' : 'remote';
}
