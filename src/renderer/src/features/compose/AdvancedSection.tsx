/** Webhook endpoint and secret, folded away until needed. */
import { useId, useState } from 'react';
import { TextField } from '../../components/TextField.tsx';
import { useCompose } from '../../state/compose-state.ts';
import { isRerun } from './compose-model.ts';

function secretHint(rerun: boolean, retype: boolean): string {
  const header = 'Sent back in the x-webhook-secret header.';
  const kept =
    'Left empty, the re-run keeps the secret of the task it re-runs (never shown) for the same endpoint.';
  if (retype) {
    const again = 'Type the secret again: drafts never keep it.';
    return rerun ? `${again} ${kept}` : `${again} ${header}`;
  }
  return rerun ? `${header} ${kept}` : header;
}

export function AdvancedSection() {
  const id = useId();
  const common = useCompose((s) => s.common[s.tab]);
  const errors = useCompose((s) => s.errors[s.tab]);
  const setCommon = useCompose((s) => s.setCommon);
  const rerun = useCompose((s) => isRerun(s.parent[s.tab]));
  const hasWebhookError = Boolean(errors['webhook_config.endpoint'] || errors['webhook_config.secret']);
  // drafts never keep a secret: one typed before a restart is asked for again
  const retype =
    common.webhookSecretNotKept === true &&
    common.webhookSecret === '' &&
    common.webhookEndpoint.trim() !== '';
  const [open, setOpen] = useState(false);
  const expanded = open || hasWebhookError || retype;
  return (
    <section className="advanced" aria-labelledby={`${id}-toggle`}>
      <h2 className="advanced-heading">
        <button
          id={`${id}-toggle`}
          type="button"
          className="disclosure"
          aria-expanded={expanded}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen(!expanded)}
        >
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> Advanced: webhook
        </button>
      </h2>
      <div id={`${id}-panel`} hidden={!expanded} className="advanced-panel">
        <TextField
          label="Webhook endpoint"
          type="url"
          optional
          value={common.webhookEndpoint}
          placeholder="https://example.com/hooks/media"
          hint="The service posts the finished task here."
          error={errors['webhook_config.endpoint']}
          onChange={(webhookEndpoint) => setCommon({ webhookEndpoint })}
        />
        <TextField
          label="Webhook secret"
          type="password"
          optional
          value={common.webhookSecret}
          hint={secretHint(rerun, retype)}
          error={errors['webhook_config.secret']}
          onChange={(webhookSecret) => setCommon({ webhookSecret })}
        />
      </div>
    </section>
  );
}
