/** Banners over the view: offline, no service, an authentication problem, the plan's limit, demo mode. */
import type { EngineStatusView } from '../../../shared/index.ts';
import { invoke } from '../bridge.ts';
import { useStudio } from '../stores/studio-store.ts';
import { toastError, useUi } from '../stores/ui-store.ts';

async function switchToDemo(): Promise<void> {
  try {
    useStudio.getState().setSettings(await invoke('settings.update', { demoMode: true, firstRun: false }));
  } catch (err) {
    toastError(err);
  }
}

function openSettingsAt(target: 'api-key' | 'base-url'): void {
  useUi.getState().navigate('settings');
  useUi.getState().requestFocus(target);
}

function openKeySettings(): void {
  openSettingsAt('api-key');
}

/**
 * Why nothing reaches the service, in the user's terms: no network at all (the system says so),
 * or the network is fine but the service's address does not answer (a wrong address, the
 * service down).
 */
function offlineText(status: EngineStatusView): string {
  if (!status.networkSignal) return "You're offline — tasks will be sent when the network returns";
  const where = status.serviceAddress ? ` at ${status.serviceAddress}` : '';
  return `The service${where} cannot be reached — tasks wait here and are sent when it answers. Check the address in Settings if this lasts.`;
}

export function Banners() {
  const status = useStudio((s) => s.status);
  const settings = useStudio((s) => s.settings);
  const bootError = useStudio((s) => s.bootError);
  return (
    <div className="banners">
      {bootError ? (
        <div className="banner banner-danger" role="alert" data-testid="boot-banner">
          Could not reach the app's engine: {bootError}
        </div>
      ) : null}
      {status && !status.online ? (
        <div className="banner banner-warning" role="status" data-testid="offline-banner">
          {offlineText(status)}
        </div>
      ) : null}
      {status && status.service === 'none' ? (
        <div className="banner banner-warning" role="status" data-testid="no-service-banner">
          <span>
            {settings?.keyProblem
              ? `Tasks are queued here: ${settings.keyProblem}`
              : settings?.hasApiKey
                ? 'No service set up — tasks are queued until you add the base URL or use the demo'
                : 'No service set up — tasks are queued until you add an API key or use the demo'}
          </span>
          <span className="banner-actions">
            <button type="button" className="button button-small" onClick={() => void switchToDemo()}>
              Use the demo
            </button>
            {settings?.hasApiKey ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => openSettingsAt('base-url')}
              >
                Add base URL
              </button>
            ) : (
              <button type="button" className="button button-small" onClick={openKeySettings}>
                Add API key
              </button>
            )}
          </span>
        </div>
      ) : null}
      {status?.authProblem ? (
        <div className="banner banner-danger" role="alert" data-testid="auth-banner">
          <span>{status.authProblem}</span>
          <button type="button" className="button button-small" onClick={openKeySettings}>
            Check the API key
          </button>
        </div>
      ) : null}
      {status?.storageProblem ? (
        <div className="banner banner-danger" role="alert" data-testid="storage-banner">
          {status.storageProblem}
        </div>
      ) : null}
      {status?.serviceLimitReason ? (
        <div className="banner banner-info" role="status" data-testid="service-limit-banner">
          {status.serviceLimitReason}
        </div>
      ) : null}
      {settings?.demoMode || status?.service === 'sandbox' ? (
        <div className="banner banner-info" role="status" data-testid="demo-banner">
          Demo mode: tasks run on the built-in sandbox, results are samples made on this computer, and nothing
          is billed.
        </div>
      ) : null}
    </div>
  );
}
