import { type FormEvent, useState } from 'react';
import { MESSAGES, validateNewPassword } from '../../../../shared/auth/rules.ts';
import { changePassword } from '../../../auth/client.ts';
import { ErrorBox, NewPasswordFields, PasswordField } from '../../../auth/ui.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { useAction } from '../../../lib/useAction.ts';
import { Success } from './Section.tsx';

// Changing the password: the current one, the new one twice, and whether to sign the other
// sessions out.

export const ChangePassword = () => {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!current) return setError(MESSAGES.passwordRequired);
    const problem = validateNewPassword(next, confirm);
    if (problem) return setError(problem);
    await run(async () => {
      await changePassword(current, next, signOutOthers);
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(signOutOthers ? 'Password changed. Your other sessions were signed out.' : 'Password changed.');
    });
  };
  const edit = (setter: (v: string) => void) => (e: { target: { value: string } }) => {
    setter(e.target.value);
    setError(null);
  };
  const differ = confirm.length > 0 && next !== confirm;

  return (
    <>
      <ErrorBox message={error} />
      <Success message={done} />
      <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={edit(setCurrent)}
        />
        <NewPasswordFields
          password={next}
          confirm={confirm}
          onPassword={(v) => {
            setNext(v);
            setError(null);
          }}
          onConfirm={(v) => {
            setConfirm(v);
            setError(null);
          }}
        />
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            className="h-5 w-5 accent-brand-600"
            checked={signOutOthers}
            onChange={(e) => setSignOutOthers(e.target.checked)}
          />
          Sign out my other sessions
        </label>
        <div>
          <Button type="submit" busy={busy} disabled={differ}>
            {busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </form>
    </>
  );
};
