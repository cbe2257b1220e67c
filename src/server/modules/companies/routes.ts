import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ROLES,
  createCompanySchema,
  invitationSchema,
  inviteSchema,
  memberSchema,
  myCompanySchema,
  updateCompanySchema,
} from '../../../shared/companies.ts';
import { requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
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

const orgParams = z.object({ organizationId: z.string().min(1) });
const tags = ['companies'];

export const companyRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs',
      {
        schema: {
          tags,
          summary: 'Companies I belong to',
          response: { 200: z.object({ companies: z.array(myCompanySchema) }) },
        },
      },
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
      '/orgs/:organizationId',
      {
        schema: { tags, summary: 'One company', params: orgParams, response: { 200: myCompanySchema } },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getCompany(ctx, memberOf(request)),
    );

    app.patch(
      '/orgs/:organizationId',
      {
        schema: {
          tags,
          summary: 'Change company settings',
          params: orgParams,
          body: updateCompanySchema,
          response: { 200: myCompanySchema },
        },
        preHandler: requirePermission(ctx, 'manage_settings'),
      },
      async (request) => updateCompany(ctx, memberOf(request), request.body),
    );

    app.get(
      '/orgs/:organizationId/members',
      {
        schema: {
          tags,
          summary: 'Members and their roles',
          params: orgParams,
          response: { 200: z.object({ members: z.array(memberSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({ members: await listMembers(ctx, memberOf(request)) }),
    );

    app.patch(
      '/orgs/:organizationId/members/:userId',
      {
        schema: {
          tags,
          summary: "Change a member's role",
          params: orgParams.extend({ userId: z.string().min(1) }),
          body: z.object({
            role: z.enum(ROLES, { error: 'Choose a role: owner, admin, accountant, member or viewer.' }),
          }),
          response: { 200: z.object({ userId: z.string(), role: z.enum(ROLES) }) },
        },
        preHandler: requirePermission(ctx, 'manage_members'),
      },
      async (request) => changeMemberRole(ctx, memberOf(request), request.params.userId, request.body.role),
    );

    app.delete(
      '/orgs/:organizationId/members/:userId',
      {
        schema: {
          tags,
          summary: 'Remove a member',
          params: orgParams.extend({ userId: z.string().min(1) }),
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'manage_members'),
      },
      async (request, reply) => {
        await removeMember(ctx, memberOf(request), request.params.userId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/leave',
      {
        schema: { tags, summary: 'Leave the company', params: orgParams, response: { 204: z.null() } },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request, reply) => {
        await leaveCompany(ctx, memberOf(request));
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/invitations',
      {
        schema: {
          tags,
          summary: 'Invitations sent',
          params: orgParams,
          response: { 200: z.object({ invitations: z.array(invitationSchema) }) },
        },
        preHandler: requirePermission(ctx, 'manage_members'),
      },
      async (request) => ({ invitations: await listInvitations(ctx, memberOf(request)) }),
    );

    app.post(
      '/orgs/:organizationId/invitations',
      {
        schema: {
          tags,
          summary: 'Invite someone by email',
          params: orgParams,
          body: inviteSchema,
          response: { 201: invitationSchema },
        },
        preHandler: requirePermission(ctx, 'manage_members'),
      },
      async (request, reply) => {
        const invitation = await inviteMember(ctx, memberOf(request), request.body, (sent, trx) =>
          deliverInvitation(ctx, sent, trx),
        );
        return reply.status(201).send(invitation);
      },
    );

    app.delete(
      '/orgs/:organizationId/invitations/:invitationId',
      {
        schema: {
          tags,
          summary: 'Withdraw an invitation',
          params: orgParams.extend({ invitationId: z.string().min(1) }),
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'manage_members'),
      },
      async (request, reply) => {
        await revokeInvitation(ctx, memberOf(request), request.params.invitationId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/me/invitations',
      {
        schema: {
          tags,
          summary: 'Invitations waiting for me',
          response: { 200: z.object({ invitations: z.array(invitationSchema) }) },
        },
      },
      async (request) => ({ invitations: await listMyInvitations(ctx, await requireUser(ctx, request)) }),
    );

    app.post(
      '/invitations/:invitationId/:answer',
      {
        schema: {
          tags,
          summary: 'Accept or decline an invitation',
          params: z.object({ invitationId: z.string().min(1), answer: z.enum(['accept', 'decline']) }),
          response: {
            200: z.object({ organizationId: z.string(), status: z.enum(['accepted', 'declined']) }),
          },
        },
      },
      async (request) =>
        respondToInvitation(
          ctx,
          await requireUser(ctx, request),
          request.params.invitationId,
          request.params.answer,
        ),
    );
  };
