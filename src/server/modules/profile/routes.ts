import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { profilePatchSchema } from '../../../shared/auth/profile.ts';
import { requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import { getOwnProfile, updateOwnProfile } from './service.ts';

// The signed-in user's own profile. There is no route that takes a user id: the id always
// comes from the session, so nobody can read or write another user's profile.

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

const channels = z.object({
  transactions: z.boolean(),
  invoices: z.boolean(),
  payments: z.boolean(),
  security: z.boolean(),
});

export const userProfileSchema = z.object({
  uid: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  photoURL: z.string(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  updatedAt: z.string(),
  isActive: z.boolean(),
  firstName: z.string(),
  lastName: z.string(),
  displayName: z.string(),
  phone: z.string(),
  company: z.string(),
  role: z.string(),
  timezone: z.string(),
  preferences: z.object({
    theme: z.enum(['light', 'dark', 'system']),
    language: z.string(),
    currency: z.string(),
    dateFormat: z.string(),
    notifications: z.object({ email: channels, push: channels }),
  }),
  security: z.object({
    twoFactorEnabled: z.boolean(),
    lastPasswordChange: z.string().nullable(),
    loginAlerts: z.boolean(),
    twoFactorSetupAt: z.string().nullable(),
  }),
});

export const profileRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/me/profile',
      {
        schema: {
          tags: ['accounts'],
          summary: "The signed-in user's profile (created with defaults if missing)",
          response: { 200: userProfileSchema, 401: errorBody },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return getOwnProfile(ctx, user.id);
      },
    );

    app.patch(
      '/me/profile',
      {
        schema: {
          tags: ['accounts'],
          summary: "Change the signed-in user's profile and preferences",
          body: profilePatchSchema,
          response: { 200: userProfileSchema, 400: errorBody, 401: errorBody },
        },
      },
      async (request) => {
        const user = await requireUser(ctx, request);
        return updateOwnProfile(ctx, user.id, request.body);
      },
    );
  };
