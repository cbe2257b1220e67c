import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { PasswordField, editClearing } from '../../../auth/ui.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { Form } from '../../../components/ui/Form.tsx';
import { Success } from '../security/Section.tsx';
import { EMAIL_CHANGE_MESSAGES, emailChangeProblem, requestEmailChange } from './emailChange.ts';

// The sign-in email: the current one and whether it is confirmed; a new one with the current
// password sends a link to the new address, and the address changes when it is opened (the
// link lands back here with ?emailChanged=1, or ?error=… when it was refused).

export const EmailChange = () => {
  const { currentUser, userProfile, refreshProfile, refreshSession } = useAuth();
  const [params, setParams] = useSearchParams();
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const email = currentUser?.email ?? userProfile?.email ?? '';
  const verified = currentUser?.emailVerified ?? userProfile?.emailVerified ?? false;
  const edit = editClearing(() => setProblem(null));

  // Back from the link: say what happened once, then drop the marker from the address.
  const changed = params.get('emailChanged') === '1';
  const failed = params.get('error');
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once when the link lands here
  useEffect(() => {
    if (!changed && !failed) return;
    if (failed) setProblem(EMAIL_CHANGE_MESSAGES.linkFailed);
    else {
      setDone('Your email address is changed and confirmed.');
      void refreshSession().then(refreshProfile);
    }
    setParams({ tab: 'profile' }, { replace: true });
  }, []);

  const submit = async (_event: FormEvent<HTMLFormElement>) => {
    if (busy) return;
    setDone(null);
    const found = emailChangeProblem({ newEmail, password }, email);
    setProblem(found);
    if (found) return;
    setBusy(true);
    try {
      await requestEmailChange(newEmail, password);
      setDone(
        `We sent a confirmation link to ${newEmail.trim().toLowerCase()}. Your address changes when you open it; until then you sign in with ${email}.`,
      );
      setNewEmail('');
      setPassword('');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p className="mb-4 text-sm text-slate-700 dark:text-slate-300">
        You sign in as <strong className="break-all text-slate-900 dark:text-white">{email}</strong>{' '}
        <span
          className={`ml-1 rounded-full px-2 py-0.5 text-xs font-semibold ${verified ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200' : 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-200'}`}
        >
          {verified ? 'Confirmed' : 'Not confirmed'}
        </span>
      </p>
      <Success message={done} />
      <Form
        onSubmit={submit}
        error={problem}
        busy={busy}
        submitLabel={busy ? 'Sending...' : 'Send confirmation link'}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="New email address"
            type="email"
            autoComplete="email"
            value={newEmail}
            onChange={edit(setNewEmail)}
          />
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            value={password}
            onChange={edit(setPassword)}
          />
        </div>
      </Form>
    </>
  );
};
