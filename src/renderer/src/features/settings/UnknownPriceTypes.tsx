/**
 * The task types Queue sends without asking about their unknown price (the user ticked "Don't
 * ask again for …" in its question; settings `unknownPriceAccepted`), each with "Ask again".
 */
import { entryById } from '../../../../shared/index.ts';
import { useStudio } from '../../state/studio-state.ts';
import { updateSettings } from './settings-actions.ts';

export function UnknownPriceTypes() {
  const accepted = useStudio((s) => s.settings?.unknownPriceAccepted ?? []);
  if (accepted.length === 0) return null;
  return (
    <div className="unknown-price-types" data-testid="unknown-price-types">
      <p className="muted">Queued without asking, though their price is not known:</p>
      <ul>
        {accepted.map((id) => {
          const label = entryById(id)?.label ?? id;
          return (
            <li key={id}>
              {label}{' '}
              <button
                type="button"
                className="button button-small"
                aria-label={`Ask again before queueing ${label}`}
                onClick={() =>
                  void updateSettings(
                    { unknownPriceAccepted: accepted.filter((other) => other !== id) },
                    `Queue will ask about the price of ${label} again.`,
                  )
                }
              >
                Ask again
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
