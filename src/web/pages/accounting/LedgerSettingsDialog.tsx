import { useState } from 'react';
import type { LedgerSettings } from '../../../shared/ledger.ts';
import { TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
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
  const [lockDate, setLockDate] = useState(settings.lockDate ?? '');
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
        value={lockDate}
        onChange={(e) => setLockDate(e.target.value)}
        hint="Nothing can be posted, changed or reversed on or before this date. Leave empty to keep every period open."
      />
      <label className="flex items-start gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <input
          type="checkbox"
          checked={approvalRequired}
          onChange={(e) => setApprovalRequired(e.target.checked)}
          className="mt-0.5 h-5 w-5 rounded border-slate-300 text-brand-600"
        />
        <span>
          <span className="block text-sm font-medium text-slate-900 dark:text-white">
            Require approval of journal entries
          </span>
          <span className="block text-sm text-slate-500 dark:text-slate-400">
            Entries by members wait for an owner, admin or accountant to approve them before they reach the
            books.
          </span>
        </span>
      </label>
    </FormDialog>
  );
};
