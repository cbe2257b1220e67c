import type { AppContext } from '../context.ts';

// What other modules do when someone signs in (a completed sign-in: password, or password and
// second factor; not sign-up, not turning 2FA on), without auth importing them: app.ts
// registers each module's hook (notifications records the sign-in history and alerts on a new
// device). Registering the same function twice runs it once. A failing hook is logged and never
// fails the sign-in.

export type SignInHook = (
  ctx: AppContext,
  session: {
    id: string;
    userId: string;
    ipAddress?: string | null;
    userAgent?: string | null;
    createdAt: Date;
  },
) => Promise<unknown>;

const hooks = new Set<SignInHook>();

export const onSignIn = (hook: SignInHook) => {
  hooks.add(hook);
};

export const runSignInHooks: SignInHook = async (ctx, session) => {
  for (const hook of hooks) {
    await hook(ctx, session).catch((error: unknown) => console.warn('kontor: sign-in hook failed', error));
  }
};
