import { Copy, Download } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { MESSAGES } from '../../../../shared/auth/rules.ts';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { regenerateBackupCodes } from '../../../auth/client.ts';
import { ErrorBox, PasswordField, editClearing } from '../../../auth/ui.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { useAction } from '../../../lib/useAction.ts';
import { Success } from './Section.tsx';
import { backupCodesFileName, backupCodesText } from './backupCodes.ts';

// New backup codes for two-factor sign-in: confirmed with the password, shown once with
// Copy and Download (a text file); the old codes stop working at once.

type Made = { codes: string[]; at: Date };

export const BackupCodes = () => {
  const { userProfile, currentUser } = useAuth();
  const enabled = userProfile?.security.twoFactorEnabled ?? currentUser?.twoFactorEnabled === true;
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [made, setMade] = useState<Made | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const edit = editClearing(() => setError(null));

  if (!enabled) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Backup codes come with two-factor authentication. Turn it on above to get your first set.
      </p>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(MESSAGES.passwordRequired);
    await run(async () => {
      const codes = await regenerateBackupCodes(password);
      setMade({ codes, at: new Date() });
      setPassword('');
      setAsking(false);
      setNote('New backup codes are ready. Your old codes no longer work.');
    });
  };

  const text = made ? backupCodesText(made.codes, currentUser?.email ?? '', made.at) : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setNote('Codes copied.');
    } catch {
      setError('Could not copy here. Select the codes and copy them, or download them.');
    }
  };
  const download = () => {
    if (!made) return;
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = backupCodesFileName(made.at);
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <>
      <ErrorBox message={error} />
      <Success message={note} />
      {made ? (
        <div className="space-y-4">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Save these codes somewhere safe now: they are shown only this once. Each works once if you lose
            your authenticator.
          </p>
          <ul
            data-testid="new-backup-codes"
            aria-label="Backup codes"
            className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-4 font-mono text-sm text-slate-900 sm:grid-cols-5 dark:bg-slate-800 dark:text-slate-100"
          >
            {made.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void copy()}>
              <Copy className="h-4 w-4" aria-hidden="true" /> Copy
            </Button>
            <Button variant="secondary" onClick={download}>
              <Download className="h-4 w-4" aria-hidden="true" /> Download .txt
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setMade(null);
                setNote(null);
              }}
            >
              I've saved them
            </Button>
          </div>
        </div>
      ) : asking ? (
        <form onSubmit={submit} noValidate className="grid max-w-md gap-3">
          <PasswordField
            label="Confirm with your password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={edit(setPassword)}
          />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" busy={busy}>
              {busy ? 'Making codes...' : 'Make new codes'}
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button
          variant="secondary"
          onClick={() => {
            setAsking(true);
            setNote(null);
          }}
        >
          Regenerate backup codes
        </Button>
      )}
    </>
  );
};
