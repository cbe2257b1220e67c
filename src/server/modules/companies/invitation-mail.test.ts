import { describe, expect, it } from 'vitest';
import { formatterFor } from '../../../shared/format.ts';
import { invitationMail } from './invitation-mail.ts';

// The invitation email writes its expiry as the inviting user reads dates and times.

describe('invitation email', () => {
  const sent = {
    invitation: {
      id: 'i1',
      organizationId: 'o1',
      organizationName: 'Acme Trading Ltd',
      email: 'new@example.com',
      role: 'viewer',
      invitedBy: 'u1',
      expiresAt: '2026-12-05T23:30:00.000Z',
      createdAt: '2026-11-28T23:30:00.000Z',
      status: 'pending',
    },
    acceptUrl: 'http://localhost:3000/dashboard?invitation=i1',
  } as unknown as Parameters<typeof invitationMail>[0];

  it("writes the expiry in the inviter's date format and time zone, naming the zone", () => {
    expect(invitationMail(sent).text).toContain('expires on 12/05/2026, 11:30 PM (UTC time)');
    const berlin = formatterFor({ dateFormat: 'DD.MM.YYYY', timeZone: 'Europe/Berlin' });
    expect(invitationMail(sent, berlin).text).toContain(
      'expires on 06.12.2026, 12:30 AM (Europe/Berlin time)',
    );
  });
});
