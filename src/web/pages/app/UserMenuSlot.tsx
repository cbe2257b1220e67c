import { useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { Avatar } from '../../components/Avatar.tsx';

// The signed-in user's photo (or initials), name and Sign out. Logging out clears the cached profile, ends the
// session on the server and drops every cached query, so the next user sees nothing of it.
export const UserMenuSlot = () => {
  const { currentUser, userProfile, logout } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  if (!currentUser) return null;
  const name = userProfile?.displayName || currentUser.name || currentUser.email;
  const signOut = async () => {
    setBusy(true);
    try {
      await logout();
    } catch (error) {
      console.warn('kontor: sign-out request failed; the local session was cleared', error);
    } finally {
      queryClient.clear();
      navigate('/login', { replace: true });
    }
  };
  return (
    <div className="flex shrink-0 items-center gap-2">
      {/* On a phone the header keeps Sign out (an icon with its name read out) and drops the photo. */}
      <span className="hidden sm:contents">
        <Avatar photoURL={userProfile?.photoURL} name={name} email={currentUser.email} />
      </span>
      <span
        className="hidden max-w-48 truncate text-sm text-slate-600 sm:inline dark:text-slate-300"
        title={currentUser.email}
      >
        {name}
      </span>
      <button
        type="button"
        onClick={() => void signOut()}
        disabled={busy}
        className="inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 rounded-lg px-3 text-sm font-medium whitespace-nowrap text-slate-700 hover:bg-slate-100 disabled:opacity-50 dark:text-slate-200 dark:hover:bg-slate-800"
      >
        <LogOut className="h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Sign out</span>
      </button>
    </div>
  );
};
