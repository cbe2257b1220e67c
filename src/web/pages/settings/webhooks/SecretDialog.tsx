import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookEndpointWithSecret } from '../../../../shared/webhooks.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Alert } from '../../../components/ui/Card.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { api } from '../../../lib/api.ts';
import { useCompany } from '../../../lib/company.tsx';
import { invalidateAfter } from '../../../lib/queryKeys.ts';
import { useAction } from '../../../lib/useAction.ts';

// An endpoint's signing secret (`whsec_…`): shown with a copy button, and replaced by Rotate
// (the old secret stops signing at once).

export const SecretDialog = ({
  endpoint,
  onClose,
  onChanged,
}: {
  endpoint: WebhookEndpointWithSecret;
  onClose: () => void;
  onChanged: (endpoint: WebhookEndpointWithSecret) => void;
}) => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [rotated, setRotated] = useState(false);
  const rotate = useAction();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(endpoint.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <FormDialog
      title="Signing secret"
      description={`Kontor signs every webhook to ${endpoint.url} with this secret. Verify the webhook-signature header with it (docs: Webhooks).`}
      onClose={onClose}
      onSubmit={onClose}
      submitLabel="Done"
      cancelLabel="Close"
      error={rotate.error}
    >
      {rotated ? (
        <Alert tone="success">
          A new secret is in place; the old one no longer signs. Update your receiver.
        </Alert>
      ) : null}
      <TextField
        label="Signing secret"
        readOnly
        value={endpoint.secret}
        onFocus={(e) => e.currentTarget.select()}
        className="font-mono"
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          Copy secret
        </Button>
        <Button
          type="button"
          variant="ghost"
          busy={rotate.busy}
          onClick={() =>
            void rotate.run(async () => {
              const next = await api.post<WebhookEndpointWithSecret>(
                `/orgs/${company.id}/webhooks/endpoints/${endpoint.id}/rotate-secret`,
              );
              setRotated(true);
              setCopied(null);
              onChanged(next);
              await invalidateAfter.webhooks(queryClient, company.id);
            })
          }
        >
          Rotate secret
        </Button>
        <span role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'failed'
              ? 'Could not copy: select the secret and copy it.'
              : ''}
        </span>
      </div>
    </FormDialog>
  );
};
