/** The balance at the service in words, with a button to ask again. */
import { useStudio } from '../../stores/studio-store.ts';
import { refreshAccount } from './account-actions.ts';

function usdText(usd: number): string {
  return `$${usd.toFixed(usd < 10 ? 4 : 2).replace(/(\.\d\d)0+$/, '$1')}`;
}

/** `$12.34 left` (or the credits when the service gives no dollar figure), or null when unknown. */
export function balanceText(
  view: { balanceUsd: number | null; credits: number | null } | null,
): string | null {
  if (!view) return null;
  if (view.balanceUsd !== null) return `${usdText(view.balanceUsd)} left`;
  if (view.credits !== null) return `${view.credits.toLocaleString()} credits left`;
  return null;
}

export function AccountBalance({ compact = false }: { compact?: boolean }) {
  const account = useStudio((s) => s.account);
  const service = useStudio((s) => s.status?.service ?? 'none');
  if (service === 'none') {
    return compact ? null : <p className="field-hint">The balance shows once a key is stored.</p>;
  }
  const text = balanceText(account.view);
  const where = service === 'sandbox' ? ' (demo sandbox, not real money)' : '';
  if (compact) {
    return text ? (
      <span className="balance-compact" data-testid="balance-compact">
        Balance {text}
        {where}
      </span>
    ) : null;
  }
  return (
    <div className="balance" data-testid="balance">
      <p aria-live="polite">
        {account.checking && !text ? 'Checking the balance…' : null}
        {text ? (
          <>
            Balance: <strong>{text}</strong>
            {where}
            {account.view?.accountName ? ` · account ${account.view.accountName}` : ''}
          </>
        ) : null}
      </p>
      {account.problem ? (
        <p className="field-error" role="alert" data-testid="balance-problem">
          {account.problem}
        </p>
      ) : null}
      <button
        type="button"
        className="button button-small"
        disabled={account.checking}
        onClick={() => void refreshAccount()}
      >
        {account.checking ? 'Checking…' : 'Check balance'}
      </button>
    </div>
  );
}
