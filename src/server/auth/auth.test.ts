import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { signUpTestUser } from '../testing/users.ts';

describe('auth core', () => {
  const t = setUpTestApp();

  it('signs up, keeps a database session in an httpOnly cookie, and reads it back', async () => {
    const user = await signUpTestUser(t.app, { email: 'ada@example.com' });
    expect(user.cookie).toMatch(/session_token=/);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: user.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('ada@example.com');
    const sessions = await sql`select count(*)::int as n from "session"`.execute(t.database.db);
    expect((sessions.rows[0] as { n: number }).n).toBeGreaterThan(0);
  });

  it('stores the password as Argon2id, never in clear', async () => {
    const user = await signUpTestUser(t.app, { password: 'Secret-Pass-42' });
    const row = await sql<{
      password: string;
    }>`select password from "account" where "userId" = ${user.id}`.execute(t.database.db);
    expect(row.rows[0]!.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('signs in with the right password and refuses the wrong one', async () => {
    const user = await signUpTestUser(t.app);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'http://localhost:3000' },
      payload: { email: user.email, password: user.password },
    });
    expect(ok.statusCode).toBe(200);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: 'http://localhost:3000' },
      payload: { email: user.email, password: 'wrong-password' },
    });
    expect(bad.statusCode).toBe(401);
  });

  it('never rate-limits reading the session, which every page load does', async () => {
    const user = await signUpTestUser(t.app);
    const statuses = new Set<number>();
    for (let i = 0; i < 130; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/auth/get-session',
        headers: { cookie: user.cookie },
      });
      statuses.add(res.statusCode);
    }
    expect([...statuses]).toEqual([200]);
  });
});
