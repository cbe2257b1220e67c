import { type Invitation, ROLE_LABELS } from '../../../shared/companies.ts';
import { type Formatter, defaultFormatter, formatterFor } from '../../../shared/format.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { sendMail } from '../mail/service.ts';
import { formatPreferencesOfUser } from '../profile/service.ts';

// The invitation email, through the mail module (SMTP, or the development outbox written
// in the invitation's own transaction so both commit together).

export type InvitationSent = { invitation: Invitation; acceptUrl: string };

export const invitationMail = (
  { invitation, acceptUrl }: InvitationSent,
  format: Formatter = defaultFormatter,
) => ({
  to: invitation.email,
  subject: `You're invited to ${invitation.organizationName} on Kontor`,
  text: [
    `You have been invited to join ${invitation.organizationName} on Kontor as ${ROLE_LABELS[invitation.role]}.`,
    '',
    `Sign in or create an account with this email address, then accept the invitation: ${acceptUrl}`,
    '',
    `The invitation expires on ${format.dateTime(invitation.expiresAt)} (${format.prefs.timeZone} time). If you did not expect it, ignore this email.`,
  ].join('\n'),
});

/** Sends the invitation, its expiry written as the inviting user reads dates (docs/formatting.md). */
export const deliverInvitation = async (ctx: AppContext, sent: InvitationSent, trx: Db) => {
  const prefs = await formatPreferencesOfUser(ctx, sent.invitation.invitedBy, trx);
  await sendMail(ctx, invitationMail(sent, formatterFor(prefs ?? {})), { db: trx });
};
