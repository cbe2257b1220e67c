import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../../shared/errors.ts';
import { requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import { developmentOnly } from '../../http/request-security.ts';
import { mailboxEnabled } from '../mail/service.ts';
import { PLAN_ACCESS, createPromoCode, redeemPromoCode, validatePromoCode } from './service.ts';

// SPEC section 7. Validation is anonymous (the sign-up form asks before the account
// exists) and rate-limited against guessing; redemption needs the user's session or
// bearer token and answers `{ success, error? }`.

const errorObject = z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() });
const errorBody = z.object({ error: errorObject });
const codeBody = z.object({ code: z.string().max(64) });

const VALIDATE_LIMIT = { max: 30, timeWindow: '1 minute' };

export const promoRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/promo-codes/validate',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Check a promo code (no sign-in needed)',
          body: codeBody,
          response: {
            200: z.object({
              success: z.boolean(),
              valid: z.boolean(),
              data: z.object({ planAccess: z.string(), description: z.string().nullable() }).optional(),
            }),
            400: errorBody,
            429: errorBody,
          },
        },
        config: {
          rateLimit: {
            ...VALIDATE_LIMIT,
            errorResponseBuilder: () =>
              new AppError(429, 'rate_limited', 'Too many attempts. Please try again later.'),
          },
        },
      },
      async (request) => {
        const result = await validatePromoCode(ctx, request.body.code);
        return result.valid
          ? {
              success: true,
              valid: true,
              data: { planAccess: result.planAccess, description: result.description },
            }
          : { success: true, valid: false };
      },
    );

    app.post(
      '/promo-codes/redeem',
      {
        schema: {
          tags: ['accounts'],
          summary: 'Redeem a promo code for the signed-in user',
          body: codeBody,
          response: {
            200: z.object({ success: z.literal(true), planAccess: z.string() }),
            // Refusals of the service carry success: false; a body that fails validation gets
            // the API's standard error shape.
            400: z.union([z.object({ success: z.literal(false), error: errorObject }), errorBody]),
            401: errorBody,
            409: z.object({ success: z.literal(false), error: errorObject }),
          },
        },
      },
      async (request, reply) => {
        const user = await requireUser(ctx, request);
        try {
          const result = await redeemPromoCode(ctx, user.id, request.body.code);
          return { success: true as const, planAccess: result.planAccess };
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
      dev.post(
        '/dev/promo-codes',
        {
          schema: {
            tags: ['development'],
            summary: 'Create a promo code (development and test only)',
            body: z.object({
              code: z.string().max(64),
              planAccess: z.enum(PLAN_ACCESS),
              description: z.string().max(500).optional(),
              maxRedemptions: z.number().int().min(1).optional(),
            }),
            response: {
              201: z.object({ code: z.string(), planAccess: z.string() }),
              400: errorBody,
              404: errorBody,
              409: errorBody,
            },
          },
        },
        async (request, reply) => {
          const row = await createPromoCode(ctx, request.body);
          return reply.status(201).send({ code: row.code, planAccess: row.plan_access });
        },
      );
    });
  };
