import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { promoKindSchema, promoRedeemResultSchema } from '../../../shared/billing.ts';
import { AppError } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { errorBody, errorObject } from '../../http/errors.ts';
import { developmentOnly } from '../../http/request-security.ts';
import { publicRoutes, userRoutes } from '../../http/routes.ts';
import { mailboxEnabled } from '../mail/service.ts';
import { PLAN_ACCESS, createPromoCode, redeemPromoCode, validatePromoCode } from './service.ts';

// SPEC section 7. Validation is anonymous (the sign-up form asks before the account
// exists) and rate-limited against guessing; redemption needs the user's session or
// bearer token and answers `{ success, error? }`.

const tags = ['accounts'];
const codeBody = z.object({ code: z.string().max(64) });

const VALIDATE_LIMIT = { max: 30, timeWindow: '1 minute' };

export const promoRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    publicRoutes(app, ctx, tags).post(
      '/promo-codes/validate',
      {
        summary: 'Check a promo code (no sign-in needed)',
        body: codeBody,
        response: z.object({
          success: z.boolean(),
          valid: z.boolean(),
          data: z.object({ planAccess: z.string(), description: z.string().nullable() }).optional(),
        }),
        otherResponses: { 400: errorBody, 429: errorBody },
        config: {
          rateLimit: {
            ...VALIDATE_LIMIT,
            errorResponseBuilder: () =>
              new AppError(429, 'rate_limited', 'Too many attempts. Please try again later.'),
          },
        },
      },
      async (c, { code }) => {
        const result = await validatePromoCode(c, code);
        return result.valid
          ? {
              success: true,
              valid: true,
              data: { planAccess: result.planAccess, description: result.description },
            }
          : { success: true, valid: false };
      },
    );

    userRoutes(app, ctx, tags).post(
      '/promo-codes/redeem',
      {
        summary:
          'Redeem a promo code for the signed-in user: plan access, trial extension or discount, once per account',
        body: codeBody,
        response: promoRedeemResultSchema,
        otherResponses: {
          // Refusals of the service carry success: false; a body that fails validation gets
          // the API's standard error shape.
          400: z.union([z.object({ success: z.literal(false), error: errorObject }), errorBody]),
          401: errorBody,
          409: z.object({ success: z.literal(false), error: errorObject }),
        },
      },
      async (c, user, { code }, { reply }) => {
        try {
          const { planAccess, kind, effect } = await redeemPromoCode(c, user.id, code);
          return { success: true as const, planAccess, kind, effect };
        } catch (error) {
          if (error instanceof AppError && (error.status === 400 || error.status === 409)) {
            return reply
              .status(error.status as 400 | 409)
              .send({ success: false as const, error: { code: error.code, message: error.message } });
          }
          throw error;
        }
      },
    );

    // Development and test only, and only from this machine (like /dev/mailbox): create codes
    // without a shell, for the browser tests and local trials. Operators use `npm run admin -- promo create`.
    await app.register(async (plain) => {
      const dev = plain.withTypeProvider<ZodTypeProvider>();
      dev.addHook('onRequest', developmentOnly(mailboxEnabled, ctx));
      publicRoutes(dev, ctx, ['development']).post(
        '/dev/promo-codes',
        {
          summary: 'Create a promo code (development and test only)',
          body: z.object({
            code: z.string().max(64),
            planAccess: z.enum(PLAN_ACCESS),
            description: z.string().max(500).optional(),
            maxRedemptions: z.number().int().min(1).optional(),
            kind: promoKindSchema.optional(),
            trialDays: z.number().int().min(1).max(365).optional(),
            percentOff: z.number().int().min(1).max(100).optional(),
            accessDays: z.number().int().min(1).max(3650).optional(),
          }),
          response: z.object({ code: z.string(), planAccess: z.string(), kind: promoKindSchema }),
          status: 201,
          otherResponses: { 400: errorBody, 404: errorBody, 409: errorBody },
        },
        async (c, input) => {
          const row = await createPromoCode(c, input);
          return { code: row.code, planAccess: row.plan_access, kind: row.kind };
        },
      );
    });
  };
