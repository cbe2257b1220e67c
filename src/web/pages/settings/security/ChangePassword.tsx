import { type FormEvent, useState } from 'react';
import { MESSAGES, validateNewPassword } from '../../../../shared/auth/rules.ts';
import { changePassword } from '../../../auth/client.ts';
import {
  ErrorBox,
  NewPasswordFields,
  PasswordField,
  editClearing,
  useNewPassword,
} from '../../../auth/ui.tsx';
import { CheckboxField } from '../../../components/ui/Form.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { useAction } from '../../../lib/useAction.ts';
import { Success } from './Section.tsx';

// Changing the password: the current one, the new one twice, and whether to sign the other
// sessions out.

export const ChangePassword = () => {
  const [current, setCurrent] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  const clearError = () => setError(null);
  const fresh = useNewPassword(clearError);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!current) return setError(MESSAGES.passwordRequired);
    const problem = validateNewPassword(fresh.password, fresh.confirm);
    if (problem) return setError(problem);
    await run(async () => {
      await changePassword(current, fresh.password, signOutOthers);
      setCurrent('');
      fresh.reset();
      setDone(signOutOthers ? 'Password changed. Your other sessions were signed out.' : 'Password changed.');
    });
  };

  return (
    <>
      <ErrorBox message={error} />
      <Success message={done} />
      <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={editClearing(clearError)(setCurrent)}
        />
        <NewPasswordFields fields={fresh} />
        <CheckboxField
          label="Sign out my other sessions"
          checked={signOutOthers}
          onChange={setSignOutOthers}
        />
        <div>
          <Button type="submit" busy={busy} disabled={fresh.differ}>
            {busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </form>
    </>
  );
};
