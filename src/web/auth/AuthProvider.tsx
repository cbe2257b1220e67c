import {
  type ReactNode,
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { AUTH_OTHER_MESSAGES } from '../../shared/auth/errors.ts';
import type { UserProfile } from '../../shared/auth/profile.ts';
import type { PlanChoice } from '../../shared/plans.ts';
import { api } from '../lib/api.ts';
import {
  AuthError,
  type AuthUser,
  earlySession,
  fetchSession,
  requestPasswordReset,
  signInWithEmail,
  signOutSession,
  signUpWithEmail,
  verifyTwoFactorCode,
} from './client.ts';
import { clearUserCache, readCachedProfile, writeCachedProfile } from './markers.ts';
import { browserTimeZone } from '../lib/format.ts';

// The shared sign-in rules and profile schemas are built with zod: imported when a form is
// sent, not with the providers, so that zod stays out of the entry chunk every page loads
// (docs/performance.md, "Lighthouse"). The sign-in screens load them anyway.
const authRules = () => import('../../shared/auth/rules.ts');
const authProfile = () => import('../../shared/auth/profile.ts');

// The auth context of SPEC section 4: currentUser, userProfile, loading, error,
// isAuthenticated, plus login, signup, logout and sendPasswordResetEmail. `ready` is
// false when the auth server could not be reached at all (the guard's "not initialised").

export type SignupInput = {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  promoCode?: string;
  /** The plan and interval the trial starts on (from /pricing). */
  plan?: PlanChoice;
};

export type LoginOutcome = { twoFactorRequired: boolean };

export type AuthContextValue = {
  currentUser: AuthUser | null;
  userProfile: UserProfile | null;
  loading: boolean;
  error: string | null;
  isAuthenticated: boolean;
  ready: boolean;
  /** A failure of the session check itself (not of a sign-in attempt): the guard shows it. */
  sessionError: string | null;
  login: (email: string, password: string) => Promise<LoginOutcome>;
  verifyTwoFactor: (code: string, kind?: 'totp' | 'backup') => Promise<void>;
  /** `user` is null when the address already had an account: nobody is signed in then. */
  signup: (input: SignupInput) => Promise<{ user: AuthUser | null; token: string | null }>;
  logout: () => Promise<void>;
  sendPasswordResetEmail: (email: string) => Promise<void>;
  refreshProfile: () => Promise<void>;
  refreshSession: () => Promise<void>;
  clearError: () => void;
};

const AuthContext = createContext<AuthContextValue | null>(null);

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : 'Authentication failed. Please try again.';

export const AuthProvider = ({ children }: { children: ReactNode }) => {
  // A signed-in page's session check may have answered before the first render (main.tsx,
  // `startSessionCheck`): then the first render draws the app for that user at once.
  const [initial] = useState(earlySession);
  const [currentUser, setCurrentUser] = useState<AuthUser | null>(initial?.session?.user ?? null);
  const [userProfile, setUserProfile] = useState<UserProfile | null>(null);
  const [loading, setLoading] = useState(initial === undefined);
  const [error, setError] = useState<string | null>(null);
  const [ready, setReady] = useState(true);
  const [sessionError, setSessionError] = useState<string | null>(null);
  const userId = currentUser?.id ?? null;
  const lastUserId = useRef<string | null>(null);

  const loadSession = useCallback(async () => {
    try {
      const found = await fetchSession();
      setReady(true);
      setSessionError(null);
      setCurrentUser(found?.user ?? null);
      return found?.user ?? null;
    } catch (e) {
      if (e instanceof AuthError && e.code === 'network-request-failed') setReady(false);
      else setSessionError(messageOf(e));
      setCurrentUser(null);
      return null;
    }
  }, []);

  useEffect(() => {
    void loadSession().finally(() => setLoading(false));
  }, [loadSession]);

  const refreshProfile = useCallback(async () => {
    if (!userId) return;
    // The server creates the basic profile when it is missing and answers with it.
    const profile = await api.get<UserProfile>('/me/profile');
    writeCachedProfile(userId, profile);
    setUserProfile(profile);
  }, [userId]);

  // When the user changes: clear the error, show the cached profile at once, then read it.
  useEffect(() => {
    if (lastUserId.current === userId) return;
    lastUserId.current = userId;
    setError(null);
    if (!userId) {
      setUserProfile(null);
      return;
    }
    setUserProfile(readCachedProfile<UserProfile>(userId));
    refreshProfile().catch((e: unknown) => console.warn('kontor: could not load the profile', e));
  }, [userId, refreshProfile]);

  const ensureReady = useCallback(async () => {
    if (ready) return;
    // One more try: the server may have come back since the page loaded.
    try {
      await fetchSession();
      setReady(true);
    } catch {
      throw new Error(AUTH_OTHER_MESSAGES.notInitialized);
    }
  }, [ready]);

  const login = useCallback(
    async (email: string, password: string): Promise<LoginOutcome> => {
      setLoading(true);
      setError(null);
      try {
        await ensureReady();
        const { normalizeEmail } = await authRules();
        const result = await signInWithEmail(normalizeEmail(email), password);
        if (result.twoFactorRequired) return { twoFactorRequired: true };
        if (!result.user) throw new Error(AUTH_OTHER_MESSAGES.loginNoUser);
        clearUserCache(result.user.id);
        // lastLoginAt and updatedAt are merged into the profile by the server at sign-in.
        const user = await loadSession();
        if (!user) throw new Error(AUTH_OTHER_MESSAGES.loginNoUser);
        return { twoFactorRequired: false };
      } catch (e) {
        setError(messageOf(e));
        throw e;
      } finally {
        setLoading(false);
      }
    },
    [ensureReady, loadSession],
  );

  const verifyTwoFactor = useCallback(
    async (code: string, kind: 'totp' | 'backup' = 'totp') => {
      setError(null);
      try {
        const verified = await verifyTwoFactorCode(code, kind);
        if (verified) clearUserCache(verified.id);
        const user = await loadSession();
        if (!user) throw new Error(AUTH_OTHER_MESSAGES.loginNoUser);
      } catch (e) {
        setError(messageOf(e));
        throw e;
      }
    },
    [loadSession],
  );

  const signup = useCallback(
    async (input: SignupInput) => {
      setLoading(true);
      setError(null);
      try {
        await ensureReady();
        const [{ normalizeEmail }, { buildSignupProfile }] = await Promise.all([authRules(), authProfile()]);
        const profile = buildSignupProfile(input.firstName, input.lastName, browserTimeZone());
        const created = await signUpWithEmail(
          normalizeEmail(input.email),
          input.password,
          profile,
          input.plan,
        );
        if (!created.user) throw new Error(AUTH_OTHER_MESSAGES.signupNoUser);
        const user = await loadSession();
        // An address that already has an account gets a new account's answer whose session
        // opens nothing (sign-up does not reveal accounts; its owner is emailed instead): the
        // page then asks to check the inbox.
        if (!user) return { user: null, token: null };
        return { user, token: created.token };
      } catch (e) {
        setError(messageOf(e));
        throw e;
      } finally {
        setLoading(false);
      }
    },
    [ensureReady, loadSession],
  );

  const logout = useCallback(async () => {
    if (userId) clearUserCache(userId);
    try {
      await signOutSession();
    } finally {
      setUserProfile(null);
      setCurrentUser(null);
    }
  }, [userId]);

  const sendPasswordResetEmail = useCallback(async (email: string) => {
    const { normalizeEmail } = await authRules();
    await requestPasswordReset(normalizeEmail(email));
  }, []);

  const clearError = useCallback(() => setError(null), []);

  const refreshSession = useCallback(async () => {
    await loadSession();
  }, [loadSession]);

  const value = useMemo<AuthContextValue>(
    () => ({
      currentUser,
      userProfile,
      loading,
      error,
      isAuthenticated: currentUser !== null,
      ready,
      sessionError,
      login,
      verifyTwoFactor,
      signup,
      logout,
      sendPasswordResetEmail,
      refreshProfile,
      refreshSession,
      clearError,
    }),
    [
      currentUser,
      userProfile,
      loading,
      error,
      ready,
      sessionError,
      login,
      verifyTwoFactor,
      signup,
      logout,
      sendPasswordResetEmail,
      refreshProfile,
      refreshSession,
      clearError,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
};

export const useAuth = () => {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>.');
  return value;
};
