/** The balance at the service in words, with a button to ask again. */
import { useEffect } from 'react';
import { ProblemMessage } from '../../components/ProblemMessage.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { accountIdentityOf, ensureAccountFor, refreshAccount } from './account-actions.ts';
import { balanceText } from './balance-text.ts';

/** The balance of the account in use: asked again whenever that account changes. */
function useAccount() {
  const identity = useStudio(accountIdentityOf);
  useEffect(() => ensureAccountFor(identity), [identity]);
  const account = useStudio((s) => s.account);
  const service = useStudio((s) => s.status?.service ?? 'none');
  // a balance read from another service (the demo sandbox before the key was stored) is not shown
  const view = account.view?.service === service ? account.view : null;
  return { ...account, view, service };
}

export function AccountBalance({ compact = false }: { compact?: boolean }) {
  const account = useAccount();
  const service = account.service;
  if (service === 'none') {
    return compact ? null : <p className="field-hint">The balance shows once a key is stored.</p>;
  }
  const text = balanceText(account.view);
  const where = service === 'sandbox' ? ' (demo sandbox, not real money)' : '';
  if (compact) {
    return text ? (
      <span className="balance-compact" data-testid="balance-compact" title={`Balance ${text}${where}`}>
        Balance <span className="balance-amount">{text}</span>
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
            Balance: <strong className="balance-amount">{text}</strong>
            {where}
            {/* the demo sandbox's account has no name worth showing */}
            {account.view?.accountName && service === 'remote' ? (
              <span className="balance-account"> · account {account.view.accountName}</span>
            ) : null}
          </>
        ) : null}
      </p>
      <ProblemMessage problem={account.problem} testId="balance-problem" />
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
