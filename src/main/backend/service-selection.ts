/**
 * Which service the engine talks to, from the settings and whether a key is stored:
 * - the built-in sandbox in demo mode, which is on by default (so a new user can try everything
 *   at once) and is turned off when the user stores an API key;
 * - the real service when demo mode is off and a key is set: the hosted profile (its address
 *   is known) or a custom one (once its base URL is entered);
 * - otherwise none: tasks are queued locally until the user sets things up.
 * And the profile tasks are queued with, which decides model ids and field names.
 */
import {
  hostedProfile,
  type ServiceChoice,
  type ServiceProfile,
  type Settings,
  sandboxProfile,
} from '../../shared/index.ts';

/** Where the hosted service is, when not at its public address (tests point it at a stand-in). */
export interface HostedAddress {
  baseUrl: string;
  uploadUrl: string;
}

export function chooseService(
  settings: Pick<Settings, 'demoMode' | 'baseUrl' | 'serviceProfile'>,
  hasApiKey: boolean,
): ServiceChoice {
  if (settings.demoMode) return 'sandbox';
  if (!hasApiKey) return 'none';
  if (settings.serviceProfile === 'hosted') return 'remote';
  return settings.baseUrl === '' ? 'none' : 'remote';
}

/**
 * The profile of the chosen service. Demo mode uses the sandbox's (at `sandboxUrl`) and ignores
 * the model overrides, which are meant for the real service.
 */
export function profileOf(
  settings: Settings,
  sandboxUrl: string | null,
  hostedAt: HostedAddress | null = null,
): ServiceProfile {
  if (settings.demoMode) return sandboxProfile(sandboxUrl ?? '');
  if (settings.serviceProfile === 'hosted') return { ...hostedProfile(settings.modelOverrides), ...hostedAt };
  return {
    name: 'custom',
    baseUrl: settings.baseUrl,
    uploadUrl: settings.uploadUrl,
    vendor: settings.vendor,
    modelOverrides: settings.modelOverrides,
    negativePromptField: 'negative_style_prompt',
  };
}
