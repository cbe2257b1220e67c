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
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { orgParams, companyRoutes as routesOf, userRoutes } from '../../http/routes.ts';
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

// Companies, their members and invitations. The signed-in user's own routes go through
// userRoutes, the routes under /orgs/:organizationId through companyRoutes (http/routes.ts);
// the ids of members and invitations are checked as non-empty.

const tags = ['companies'];
const memberParams = orgParams.extend({ userId: z.string().min(1) });
const invitationParams = orgParams.extend({ invitationId: z.string().min(1) });

export const companyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const mine = userRoutes(app, ctx, tags);
    mine.get('/orgs', { summary: 'Companies I belong to', response: companyListSchema }, listMyCompanies);
    mine.post(
      '/orgs',
      {
        summary: 'Create a company (I become its owner)',
        body: createCompanySchema,
        response: myCompanySchema,
        status: 201,
        // The plan's company limit, or a read-only account (docs/billing-limits.md).
        otherResponses: { 402: errorBody },
      },
      createCompany,
    );
    mine.get(
      '/me/invitations',
      { summary: 'Invitations waiting for me', response: invitationListSchema },
      listMyInvitations,
    );
    mine.post(
      '/invitations/:invitationId/:answer',
      {
        summary: 'Accept or decline an invitation',
        params: invitationAnswerParamsSchema,
        response: invitationAnswerSchema,
        // The payer's member limit or read-only account, and an expired invitation.
        otherResponses: { 402: errorBody, 410: errorBody },
      },
      respondToInvitation,
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
      listMembers,
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
      changeMemberRole,
    );
    route.delete(
      '/members/:userId',
      { summary: 'Remove a member', permission: 'manage_members', params: memberParams, response: null },
      removeMember,
    );
    route.post('/leave', { summary: 'Leave the company', permission: 'read', response: null }, leaveCompany);
    route.get(
      '/invitations',
      { summary: 'Invitations sent', permission: 'manage_members', response: invitationListSchema },
      listInvitations,
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
      inviteMember,
    );
    route.delete(
      '/invitations/:invitationId',
      {
        summary: 'Withdraw an invitation',
        permission: 'manage_members',
        params: invitationParams,
        response: null,
      },
      revokeInvitation,
    );
  };
