import type { AppContext } from '../context.ts';

// What other modules do when an account is made (after its transaction commits), without
// auth importing them: app.ts registers each module's hook (billing starts the trial on the
// plan chosen on the pricing page). Registering the same function twice runs it once.

export type SignUpHook = (
  ctx: AppContext,
  user: { id: string; email: string; name: string },
  /** The sign-up request's body (e.g. `plan`, next to `profile`), unchecked. */
  body: Record<string, unknown> | undefined,
) => Promise<void>;

const hooks = new Set<SignUpHook>();

export const onSignUp = (hook: SignUpHook) => {
  hooks.add(hook);
};

export const runSignUpHooks: SignUpHook = async (ctx, user, body) => {
  for (const hook of hooks) await hook(ctx, user, body);
};
