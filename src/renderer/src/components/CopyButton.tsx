import { useState } from 'react';
import { useUi } from '../state/ui-state.ts';

/** Copies a value to the clipboard; says so for a moment. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      useUi
        .getState()
        .pushToast('error', 'Could not copy to the clipboard; select the text and copy it instead.');
    }
  };
  return (
    <button type="button" className="button button-small" aria-label={label} onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
