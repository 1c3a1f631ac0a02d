/**
 * Banners over the view: no network or the service out of reach (with its address), no service,
 * the key refused, the plan refusing a task type, the disk, the plan's limit, demo mode, and
 * which library is shown once it changed.
 */
import { useMemo, useState } from 'react';
import type { EngineStatusView } from '../../../shared/index.ts';
import { invoke } from '../bridge.ts';
import { connectionStateOf, serviceAt } from '../model/connection-state.ts';
import { asSentence } from '../model/studio-error.ts';
import { type LoadedTask, taskTypeLabelOf } from '../model/task-status.ts';
import { type LibraryNotice, useStudio } from '../state/studio-state.ts';
import { useTasks } from '../state/tasks-state.ts';
import { toastError, useUi } from '../state/ui-state.ts';

async function setDemoMode(demoMode: boolean): Promise<void> {
  try {
    useStudio.getState().setSettings(await invoke('settings.update', { demoMode, firstRun: false }));
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
  return `${asSentence(serviceAt(status.serviceAddress))} cannot be reached — tasks wait here and are sent when it answers. Check the address in Settings if this lasts.`;
}

/** A task refused by the plan (HTTP 403) is news for an hour. */
const PLAN_NEWS_MS = 60 * 60 * 1000;

/** Task types the plan refused lately (newest first), with how many tasks each. */
function planRefusals(tasks: Iterable<LoadedTask>, now: number, seen: ReadonlySet<string>) {
  const byType = new Map<string, { label: string; ids: string[] }>();
  for (const task of tasks) {
    if (task.state !== 'failed' || task.error?.kind !== 'plan-refused' || seen.has(task.id)) continue;
    if (now - Date.parse(task.updatedAt) > PLAN_NEWS_MS) continue;
    const entry = byType.get(task.taskType) ?? { label: taskTypeLabelOf(task), ids: [] };
    entry.ids.push(task.id);
    byType.set(task.taskType, entry);
  }
  return [...byType.values()];
}

function PlanBanner() {
  const rev = useTasks((s) => s.rev);
  const byId = useTasks((s) => s.byId);
  const [seen, setSeen] = useState<ReadonlySet<string>>(new Set());
  // biome-ignore lint/correctness/useExhaustiveDependencies: `rev` says the mutable map changed
  const refused = useMemo(() => planRefusals(byId.values(), Date.now(), seen), [rev, byId, seen]);
  if (refused.length === 0) return null;
  const count = refused.reduce((n, r) => n + r.ids.length, 0);
  const types = refused.map((r) => r.label).join(', ');
  return (
    <div className="banner banner-warning" role="status" data-testid="plan-banner">
      <span>
        Your plan at the service does not allow {types}: {count === 1 ? 'a task was' : `${count} tasks were`}{' '}
        refused, and nothing was billed. Other tasks go on.
      </span>
      <span className="banner-actions">
        <button
          type="button"
          className="button button-small"
          onClick={() => useUi.getState().navigate('activity')}
        >
          Show in Activity
        </button>
        <button
          type="button"
          className="button button-small"
          onClick={() => setSeen(new Set([...seen, ...refused.flatMap((r) => r.ids)]))}
        >
          Dismiss
        </button>
      </span>
    </div>
  );
}

/** Which library is shown, once it changed (demo mode's own is said by the demo banner). */
function LibraryBanner({ notice }: { notice: LibraryNotice }) {
  const dismiss = () => useStudio.getState().setLibraryNotice(null);
  return (
    <div className="banner banner-info" role="status" data-testid="library-notice">
      <span>
        {notice.fromDemo
          ? `Demo mode is off: now showing your library (${notice.dir}). Demo results stay in the demo library; turn demo mode on to see them again.`
          : `Now showing the library in ${notice.dir}.`}
      </span>
      <span className="banner-actions">
        {notice.fromDemo ? (
          <button type="button" className="button button-small" onClick={() => void setDemoMode(true)}>
            Turn demo mode on
          </button>
        ) : null}
        <button type="button" className="button button-small" onClick={dismiss}>
          Dismiss
        </button>
      </span>
    </div>
  );
}

const DEMO_TEXT =
  'Demo mode: tasks run on the built-in sandbox, results are samples made on this computer and kept in a demo library of their own, and nothing is billed.';
/** localStorage: the demo banner was dismissed (the Queue bar still says "Demo: not billed"). */
const DEMO_DISMISSED_KEY = 'demoBanner.dismissed';

function demoDismissed(): boolean {
  try {
    return localStorage.getItem(DEMO_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/** One line (cut short in a small window, whole in its title), dismissed for good with its button. */
function DemoBanner() {
  const [dismissed, setDismissed] = useState(demoDismissed);
  if (dismissed) return null;
  const dismiss = () => {
    try {
      localStorage.setItem(DEMO_DISMISSED_KEY, '1');
    } catch {
      // storage refused: dismissed for this session
    }
    setDismissed(true);
  };
  return (
    <div className="banner banner-info banner-one-line" role="status" data-testid="demo-banner">
      <span className="banner-text" title={DEMO_TEXT}>
        {DEMO_TEXT}
      </span>
      <button
        type="button"
        className="button button-small"
        aria-label="Dismiss the demo notice"
        onClick={dismiss}
      >
        Dismiss
      </button>
    </div>
  );
}

export function Banners() {
  const status = useStudio((s) => s.status);
  const settings = useStudio((s) => s.settings);
  const bootError = useStudio((s) => s.bootError);
  const libraryNotice = useStudio((s) => s.libraryNotice);
  const connection = connectionStateOf(status);
  const demo = settings?.demoMode || status?.service === 'sandbox';
  return (
    <div className="banners">
      {bootError ? (
        <div className="banner banner-danger" role="alert" data-testid="boot-banner">
          Could not reach the app's engine: {bootError}
        </div>
      ) : null}
      {status && !status.online ? (
        <div
          className="banner banner-warning"
          role="status"
          data-testid="offline-banner"
          data-kind={connection.kind === 'no-network' ? 'no-network' : 'unreachable'}
        >
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
            <button type="button" className="button button-small" onClick={() => void setDemoMode(true)}>
              Use the demo
            </button>
            {settings?.keyProblem ? (
              // a stored key main does not use (addresses to confirm, a bad key): Settings › API key says what to do
              <button type="button" className="button button-small" onClick={openKeySettings}>
                Check the API key
              </button>
            ) : settings?.hasApiKey ? (
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
          <span>{asSentence(status.authProblem)}</span>
          <button type="button" className="button button-small" onClick={openKeySettings}>
            Check the API key
          </button>
        </div>
      ) : null}
      <PlanBanner />
      {status?.storageProblem ? (
        <div className="banner banner-danger" role="alert" data-testid="storage-banner">
          {asSentence(status.storageProblem)}
        </div>
      ) : null}
      {status?.serviceLimitReason ? (
        <div className="banner banner-info" role="status" data-testid="service-limit-banner">
          {asSentence(status.serviceLimitReason)}
        </div>
      ) : null}
      {libraryNotice && !libraryNotice.demo ? <LibraryBanner notice={libraryNotice} /> : null}
      {demo ? <DemoBanner /> : null}
    </div>
  );
}
