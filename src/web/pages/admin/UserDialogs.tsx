import { adminDisableSchema, type AdminUserDetail } from '../../../shared/admin.ts';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { plural } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useAdminChanges } from './adminApi.ts';

// The two user actions that ask first: disabling (the reason is shown to the user at sign-in;
// their sessions end at once) and deleting (typed email; lists the companies that go with them).

type Props = { user: AdminUserDetail; onClose: () => void; onDone: (message: string) => void };

export const DisableUserDialog = ({ user, onClose, onDone }: Props) => {
  const { disableUser } = useAdminChanges();
  const { values, bind } = useFormFields({ reason: '' });
  return (
    <FormDialog
      title={`Disable ${user.email}?`}
      description="They are signed out everywhere at once and cannot sign in until you enable them again. Nothing is deleted."
      onClose={onClose}
      submitLabel="Disable user"
      submitVariant="danger"
      onSubmit={async () => {
        const parsed = adminDisableSchema.safeParse(values);
        if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Give a reason.';
        await disableUser(user.id, parsed.data.reason);
        onDone(`${user.email} is disabled and was signed out.`);
      }}
    >
      <TextAreaField
        label="Reason"
        hint="Shown to the user when they try to sign in."
        rows={3}
        maxLength={500}
        required
        {...bind('reason')}
      />
    </FormDialog>
  );
};

export const DeleteUserDialog = ({ user, onClose, onDone }: Props) => {
  const { deleteUser } = useAdminChanges();
  const { values, bind } = useFormFields({ confirmEmail: '' });
  const owned = user.companies.filter((c) => c.soleOwner);
  const left = user.companies.filter((c) => !c.soleOwner);
  const matches = values.confirmEmail.trim().toLowerCase() === user.email.toLowerCase();
  return (
    <FormDialog
      title={`Delete ${user.email}?`}
      description="This cannot be undone. Download their data first if they asked for it."
      onClose={onClose}
      submitLabel="Delete user"
      submitVariant="danger"
      submitDisabled={!matches}
      onSubmit={async () => {
        if (!matches) return 'Type the user’s email address exactly to confirm.';
        const result = await deleteUser(user.id, values.confirmEmail.trim());
        const names = result.companiesDeleted.map((c) => c.name).join(', ');
        onDone(
          `Deleted ${user.email}${result.companiesDeleted.length ? ` and ${plural(result.companiesDeleted.length, 'company', 'companies')} (${names})` : ''}.`,
        );
      }}
    >
      <div className="space-y-2 text-sm text-slate-700 dark:text-slate-200">
        {owned.length ? (
          <>
            <p className="font-medium">
              These companies are deleted with them (they are the only owner), with all their data:
            </p>
            <ul className="list-disc space-y-1 pl-5">
              {owned.map((c) => (
                <li key={c.id}>
                  {c.name} ({plural(c.members, 'member')})
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p>No company is deleted: they own none alone.</p>
        )}
        {left.length ? (
          <p>
            They leave {plural(left.length, 'other company', 'other companies')}:{' '}
            {left.map((c) => c.name).join(', ')}.
          </p>
        ) : null}
      </div>
      <TextField
        label={`Type ${user.email} to confirm`}
        autoComplete="off"
        spellCheck={false}
        {...bind('confirmEmail')}
      />
    </FormDialog>
  );
};
