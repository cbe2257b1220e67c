import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { signUpTestUser } from '../../testing/users.ts';

// PATCH /api/me/profile with the Profile form's fields: SPEC's name rule and a phone that
// looks like one, refused field by field with the form's messages, nothing changed.

describe('profile details', () => {
  const t = setUpTestApp();
  const call = (method: 'GET' | 'PATCH', cookie: string, payload?: object) =>
    t.app.inject({ method, url: '/api/me/profile', headers: { cookie }, ...(payload ? { payload } : {}) });

  it('saves names, display name, phone and job title', async () => {
    const user = await signUpTestUser(t.app);
    const res = await call('PATCH', user.cookie, {
      firstName: ' Zoë ',
      lastName: "O'Neil-Smith",
      displayName: 'Zoë O.',
      phone: '+44 20 7946 0958',
      role: 'Finance lead',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Zoë',
      lastName: "O'Neil-Smith",
      displayName: 'Zoë O.',
      phone: '+44 20 7946 0958',
      role: 'Finance lead',
    });
  });

  it('refuses a bad name or phone with 400 naming the field, and changes nothing', async () => {
    const user = await signUpTestUser(t.app, { profile: { firstName: 'Ada', lastName: 'Lovelace' } });
    const before = (await call('GET', user.cookie)).json();
    for (const [body, field, message] of [
      [{ firstName: 'A' }, 'firstName', 'First name must be at least 2 characters and contain only letters.'],
      [{ lastName: 'R2D2' }, 'lastName', 'Last name must be at least 2 characters and contain only letters.'],
      [{ firstName: '' }, 'firstName', 'First name must be at least 2 characters and contain only letters.'],
      [{ phone: 'call me maybe' }, 'phone', expect.stringMatching(/^Enter a phone number/)],
    ] as const) {
      const res = await call('PATCH', user.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.details).toContainEqual({ field, message });
    }
    expect((await call('GET', user.cookie)).json()).toEqual(before);
  });
});
