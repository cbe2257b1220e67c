import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  companyListSchema,
  createCompanySchema,
  invitationAnswerParamsSchema,
  invitationAnswerSchema,
  invitationListSchema,
  invitationSchema,
  inviteSchema,
  memberListSchema,
  memberRoleChangeSchema,
  memberRoleSchema,
  myCompanySchema,
  updateCompanySchema,
} from '../../../shared/companies.ts';
import { requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import { orgParams, companyRoutes as routesOf } from '../../http/routes.ts';
import { deliverInvitation } from './invitation-mail.ts';
import {
  changeMemberRole,
  createCompany,
  getCompany,
  inviteMember,
  leaveCompany,
  listInvitations,
  listMembers,
  listMyCompanies,
  listMyInvitations,
  removeMember,
  respondToInvitation,
  revokeInvitation,
  updateCompany,
} from './service.ts';

// Companies, their members and invitations. The routes under /orgs/:organizationId go through
// companyRoutes (http/routes.ts); the ids of members and invitations are checked as non-empty.

const tags = ['companies'];
const memberParams = orgParams.extend({ userId: z.string().min(1) });
const invitationParams = orgParams.extend({ invitationId: z.string().min(1) });

export const companyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs',
      { schema: { tags, summary: 'Companies I belong to', response: { 200: companyListSchema } } },
      async (request) => ({ companies: await listMyCompanies(ctx, await requireUser(ctx, request)) }),
    );
    app.post(
      '/orgs',
      {
        schema: {
          tags,
          summary: 'Create a company (I become its owner)',
          body: createCompanySchema,
          response: { 201: myCompanySchema },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        return reply.status(201).send(await createCompany(ctx, user, request.body));
      },
    );
    app.get(
      '/me/invitations',
      { schema: { tags, summary: 'Invitations waiting for me', response: { 200: invitationListSchema } } },
      async (request) => ({ invitations: await listMyInvitations(ctx, await requireUser(ctx, request)) }),
    );
    app.post(
      '/invitations/:invitationId/:answer',
      {
        schema: {
          tags,
          summary: 'Accept or decline an invitation',
          params: invitationAnswerParamsSchema,
          response: { 200: invitationAnswerSchema },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return respondToInvitation(ctx, user, request.params.invitationId, request.params.answer);
      },
    );

    const route = routesOf(app, ctx, tags);
    route.get('', { summary: 'One company', permission: 'read', response: myCompanySchema }, getCompany);
    route.patch(
      '',
      {
        summary: 'Change company settings',
        permission: 'manage_settings',
        body: updateCompanySchema,
        response: myCompanySchema,
      },
      updateCompany,
    );
    route.get(
      '/members',
      { summary: 'Members and their roles', permission: 'read', response: memberListSchema },
      async (c, member) => ({ members: await listMembers(c, member) }),
    );
    route.patch(
      '/members/:userId',
      {
        summary: "Change a member's role",
        permission: 'manage_members',
        params: memberParams,
        body: memberRoleChangeSchema,
        response: memberRoleSchema,
      },
      (c, member, { userId, role }) => changeMemberRole(c, member, userId, role),
    );
    route.delete(
      '/members/:userId',
      { summary: 'Remove a member', permission: 'manage_members', params: memberParams, response: null },
      (c, member, { userId }) => removeMember(c, member, userId),
    );
    route.post('/leave', { summary: 'Leave the company', permission: 'read', response: null }, leaveCompany);
    route.get(
      '/invitations',
      { summary: 'Invitations sent', permission: 'manage_members', response: invitationListSchema },
      async (c, member) => ({ invitations: await listInvitations(c, member) }),
    );
    route.post(
      '/invitations',
      {
        summary: 'Invite someone by email',
        permission: 'manage_members',
        body: inviteSchema,
        response: invitationSchema,
        status: 201,
      },
      (c, member, input) => inviteMember(c, member, input, (sent, trx) => deliverInvitation(c, sent, trx)),
    );
    route.delete(
      '/invitations/:invitationId',
      {
        summary: 'Withdraw an invitation',
        permission: 'manage_members',
        params: invitationParams,
        response: null,
      },
      (c, member, { invitationId }) => revokeInvitation(c, member, invitationId),
    );
  };
