/** What the service said when a key or an address was saved: accepted, refused, or not reached. */
import { type ServiceCheck, useStudio } from '../../state/studio-state.ts';

function checkText(check: ServiceCheck): { lead: string; detail: string | null } {
  const subject = check.what === 'key' ? 'key' : 'address and key';
  switch (check.outcome) {
    case 'checking':
      return { lead: `Checking the ${subject} with the service…`, detail: null };
    case 'accepted':
      return {
        lead: check.what === 'key' ? 'Key accepted' : 'The service answered and accepted the key',
        detail: check.balance ? `balance ${check.balance}.` : null,
      };
    case 'refused':
      return {
        lead: 'The service refused this key.',
        detail: `${check.message} Store the right key to replace it.`,
      };
    case 'unreachable':
      return {
        lead: `${check.message}.`.replace(/\.\.$/, '.'),
        detail: 'The key is kept: tasks wait here and are sent once the service answers.',
      };
    default:
      return { lead: `Could not check the ${subject}.`, detail: check.message };
  }
}

/** The outcome of the last check for `what`, or nothing when the other save asked last. */
export function ServiceCheckLine({ what }: { what: ServiceCheck['what'] }) {
  const check = useStudio((s) => s.serviceCheck);
  if (!check || check.what !== what) return null;
  const { lead, detail } = checkText(check);
  const tone = check.outcome === 'accepted' ? 'good' : check.outcome === 'checking' ? 'busy' : 'bad';
  return (
    <p
      className={`service-check service-check-${tone}`}
      data-testid="service-check"
      data-outcome={check.outcome}
      role="status"
    >
      <strong>{lead}</strong>
      {detail ? (check.outcome === 'accepted' ? `: ${detail}` : ` ${detail}`) : null}
    </p>
  );
}
