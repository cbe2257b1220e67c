import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { createTestApp } from '../testing/app.ts';
import { authGet, authPost, freshIp, mailsTo } from '../testing/auth-helpers.ts';
import { signUpTestUser } from '../testing/users.ts';
import { SIGN_UP_ANSWER_FLOOR_MS, setSignUpAnswerFloor } from './auth.ts';

// Sign-up does not tell whether an address already has an account (issue 11 §10a).

const shapeOf = (value: unknown): unknown => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, shapeOf(v)]),
    );
  }
  return typeof value;
};

const cookieNames = (setCookie: string | string[] | undefined) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((c) => c.replace(/=.*$/s, ''))
    .sort();

const cookieAttributes = (setCookie: string | string[] | undefined) =>
  ([] as string[])
    .concat(setCookie ?? [])
    .map((c) =>
      c
        .split(';')
        .slice(1)
        .map((a) => a.trim())
        .sort()
        .join('; '),
    )
    .sort();

describe('sign-up with an address that already has an account', () => {
  const t = setUpTestApp();

  it('answers exactly like a new sign-up, changes nothing, and mails the owner', async () => {
    const owner = await signUpTestUser(t.app);
    const before = await t.database.db.selectFrom('user').select(['id', 'name', 'emailVerified']).execute();
    const accounts = async () =>
      (
        await sql<{
          id: string;
          password: string;
        }>`select "id", "password" from "account" order by "id"`.execute(t.database.db)
      ).rows;
    const accountsBefore = await accounts();
    const mailsBefore = (await mailsTo(t.app, owner.email)).length;

    const fresh = await authPost(t.app, '/sign-up/email', {
      email: `brand-new-${Date.now()}@example.com`,
      password: 'Quiet-River-71',
      name: 'New Person',
    });
    const taken = await authPost(t.app, '/sign-up/email', {
      email: owner.email.toUpperCase(),
      password: 'Quiet-River-71',
      name: 'Someone Else',
    });
    expect(fresh.status).toBe(200);
    expect(taken.status).toBe(200);
    expect(shapeOf(taken.body)).toEqual(shapeOf(fresh.body));
    expect(taken.body?.user.email).toBe(owner.email.toLowerCase());
    expect(taken.body?.user.id).not.toBe(owner.id);
    expect(cookieNames(taken.res.headers['set-cookie'])).toEqual(
      cookieNames(fresh.res.headers['set-cookie']),
    );
    expect(cookieAttributes(taken.res.headers['set-cookie'])).toEqual(
      cookieAttributes(fresh.res.headers['set-cookie']),
    );
    expect(Object.keys(taken.res.headers).sort()).toEqual(Object.keys(fresh.res.headers).sort());
    expect(typeof taken.res.headers['set-auth-token']).toBe('string');

    // The cookie opens nothing: no session, and the owner's account is unchanged.
    const session = await authGet(t.app, '/get-session', taken.cookie);
    expect(session.body).toBeNull();
    const after = await t.database.db.selectFrom('user').select(['id', 'name', 'emailVerified']).execute();
    expect(after.filter((u) => u.id !== fresh.body?.user.id)).toEqual(before);
    const accountsAfter = await accounts();
    expect(accountsAfter.filter((a) => accountsBefore.some((b) => b.id === a.id))).toEqual(accountsBefore);
    const mails = await mailsTo(t.app, owner.email);
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails[0]!.subject).toBe('Someone tried to sign up to Kontor with your email address');
    // No verification mail went to anyone for the taken address.
    expect(mails.filter((m) => m.subject.startsWith('Confirm your email')).length).toBe(1);

    // The old password still signs in.
    const signIn = await authPost(t.app, '/sign-in/email', { email: owner.email, password: owner.password });
    expect(signIn.status).toBe(200);
  });

  it('refuses bad input for a taken address exactly as for a free one', async () => {
    const owner = await signUpTestUser(t.app);
    for (const password of ['12345', 'password1']) {
      const free = await authPost(t.app, '/sign-up/email', {
        email: `free-${Date.now()}@example.com`,
        password,
        name: 'X Y',
      });
      const taken = await authPost(t.app, '/sign-up/email', { email: owner.email, password, name: 'X Y' });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual(free.body);
    }
  });

  it('answers no sooner than the floor either way, so timing does not tell them apart', async () => {
    setSignUpAnswerFloor(t.ctx, SIGN_UP_ANSWER_FLOOR_MS);
    try {
      const owner = await signUpTestUser(t.app);
      const time = async (email: string) => {
        const start = performance.now();
        const res = await authPost(
          t.app,
          '/sign-up/email',
          { email, password: 'Quiet-River-71', name: 'Tim Ing' },
          { ip: freshIp() },
        );
        expect(res.status).toBe(200);
        return performance.now() - start;
      };
      const fresh: number[] = [];
      const taken: number[] = [];
      for (let i = 0; i < 3; i++) {
        fresh.push(await time(`timing-${i}-${Date.now()}@example.com`));
        taken.push(await time(owner.email));
      }
      // Both paths finish well within the floor on a normal machine, so both answer at it.
      for (const ms of [...fresh, ...taken]) expect(ms).toBeGreaterThanOrEqual(SIGN_UP_ANSWER_FLOOR_MS - 5);
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      expect(Math.abs(median(taken) - median(fresh))).toBeLessThan(SIGN_UP_ANSWER_FLOOR_MS / 2);
    } finally {
      setSignUpAnswerFloor(t.ctx, 0);
    }
  });
});

describe('sign-up with AUTH_REVEAL_UNKNOWN_EMAIL=true', () => {
  it("answers SPEC's email-already-in-use for a taken address", async () => {
    const t = await createTestApp({ env: { AUTH_REVEAL_UNKNOWN_EMAIL: 'true' } });
    try {
      const owner = await signUpTestUser(t.app);
      const dup = await authPost(t.app, '/sign-up/email', {
        email: owner.email,
        password: 'Quiet-River-71',
        name: 'X Y',
      });
      expect(dup.status).toBe(422);
      expect(dup.body?.code).toBe('USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL');
      expect(dup.cookie).toBe('');
    } finally {
      await t.close();
    }
  });
});
