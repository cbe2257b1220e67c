import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { profilePatchSchema } from '../../../shared/auth/profile.ts';
import { errorBody } from '../../http/errors.ts';
import { userRoutePlugin } from '../../http/routes.ts';
import { getOwnProfile, updateOwnProfile } from './service.ts';

// The signed-in user's own profile. There is no route that takes a user id: the id always
// comes from the session (userRoutes hands the handler the signed-in user), so nobody can read
// or write another user's profile.

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

const ownProfileRoutes = userRoutePlugin(['accounts'], (route) => {
  route.get(
    '/me/profile',
    {
      summary: "The signed-in user's profile (created with defaults if missing)",
      response: userProfileSchema,
      otherResponses: { 401: errorBody },
    },
    (c, user) => getOwnProfile(c, user.id),
  );
  route.patch(
    '/me/profile',
    {
      summary: "Change the signed-in user's profile and preferences",
      body: profilePatchSchema,
      response: userProfileSchema,
      otherResponses: { 400: errorBody, 401: errorBody },
    },
    (c, user, patch) => updateOwnProfile(c, user.id, patch),
  );
});

/** The profile routes; its photo's are the attachment module's (attachments/routes-profile-photo.ts). */
export const profileRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(ownProfileRoutes(ctx));
  };
