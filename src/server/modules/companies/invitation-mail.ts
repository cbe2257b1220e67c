import type { AppContext } from '../../context.ts';
import { ROLE_LABELS } from '../../../shared/companies.ts';
import type { InvitationSent } from './service.ts';

// The invitation email. Goes through the mail module (SMTP or the development outbox).
export const invitationMail = ({ invitation, acceptUrl }: InvitationSent) => ({
  to: invitation.email,
  subject: `You're invited to ${invitation.organizationName} on Kontor`,
  text: [
    `You have been invited to join ${invitation.organizationName} on Kontor as ${ROLE_LABELS[invitation.role]}.`,
    '',
    `Open this link to accept or decline: ${acceptUrl}`,
    '',
    `The invitation expires on ${invitation.expiresAt.slice(0, 10)}. If you did not expect it, ignore this email.`,
  ].join('\n'),
});

export const deliverInvitation = async (_ctx: AppContext, _sent: InvitationSent, _trx: unknown) => {
  // Wired to the mail module's sendMail once it lands (accounts issue).
};
