import { useState } from 'react';
import type { LedgerSettings } from '../../../shared/ledger.ts';
import { TextField } from '../../components/ui/Field.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useUpdateLedgerSettings } from './ledgerApi.ts';
import { errorText } from './parts.tsx';

// Lock date and approval, for those who manage settings. Nothing posts on or before the
// lock date; with approval on, entries by people who cannot approve wait in a queue.

export const LedgerSettingsDialog = ({
  settings,
  onClose,
}: {
  settings: LedgerSettings;
  onClose: () => void;
}) => {
  const update = useUpdateLedgerSettings();
  const { values, bind } = useFormFields({ lockDate: settings.lockDate ?? '' });
  const { lockDate } = values;
  const [approvalRequired, setApprovalRequired] = useState(settings.approvalRequired);
  // What went wrong, with what to do next (errorText), is what the dialog shows.
  const submit = async () => {
    try {
      await update.mutateAsync({ lockDate: lockDate || null, approvalRequired });
      onClose();
    } catch (err) {
      return errorText(err);
    }
  };

  return (
    <FormDialog
      onClose={onClose}
      title="Ledger settings"
      description="These apply to everyone in the company."
      onSubmit={submit}
      submitLabel="Save settings"
    >
      <TextField
        label="Lock date"
        type="date"
        {...bind('lockDate')}
        hint="Nothing can be posted, changed or reversed on or before this date. Leave empty to keep every period open."
      />
      <CheckboxField
        label="Require approval of journal entries"
        description="Entries by members wait for an owner, admin or accountant to approve them before they reach the books."
        checked={approvalRequired}
        onChange={setApprovalRequired}
      />
    </FormDialog>
  );
};
