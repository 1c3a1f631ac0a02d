/**
 * Queue's question before a task with no known price (unknown-price.ts): "Queue anyway", with
 * "Don't ask again for <task type>", which keeps the task type in the settings
 * (`unknownPriceAccepted`) so that Queue sends it without asking from then on.
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { useStudio } from '../../state/studio-state.ts';
import { updateSettings } from '../settings/settings-actions.ts';

export function UnknownPriceDialog({
  message,
  entry,
  onCancel,
  onQueue,
}: {
  message: string;
  /** The task type asked about (null for one the catalog does not know: no "don't ask again"). */
  entry: { id: string; label: string } | null;
  onCancel(): void;
  onQueue(): void;
}) {
  const [dontAsk, setDontAsk] = useState(false);
  const confirm = async () => {
    if (dontAsk && entry) {
      const accepted = useStudio.getState().settings?.unknownPriceAccepted ?? [];
      if (!accepted.includes(entry.id))
        await updateSettings({ unknownPriceAccepted: [...accepted, entry.id] });
    }
    onQueue();
  };
  return (
    <ConfirmDialog
      title="Queue without a known price?"
      message={
        <>
          <p>{message}</p>
          {entry ? (
            <label className="checkbox-line">
              <input type="checkbox" checked={dontAsk} onChange={(e) => setDontAsk(e.target.checked)} />
              Don’t ask again for {entry.label}
            </label>
          ) : null}
        </>
      }
      confirmLabel="Queue anyway"
      onCancel={onCancel}
      onConfirm={() => void confirm()}
    />
  );
}
