import { z } from 'zod';
import {
  adminPromoCreateSchema,
  adminPromoListSchema,
  adminPromoSchema,
  adminPromoUpdateSchema,
  adminRedemptionListSchema,
} from '../../../shared/admin.ts';
import { errorBody } from '../../http/errors.ts';
import type { UserRoutes } from '../../http/routes.ts';
import { actorOf } from './guard.ts';
import {
  createAdminPromo,
  expireAdminPromo,
  listPromoCodes,
  listRedemptions,
  updateAdminPromo,
} from './promo.ts';

// /api/admin/promo-codes: list, create, edit, expire, redemptions.

const codeParams = z.object({ code: z.string().min(1).max(64) });
const refusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

export const promoAdminRoutes = (route: UserRoutes) => {
  route.get(
    '/admin/promo-codes',
    { summary: 'Promo codes with state and use', response: adminPromoListSchema, otherResponses: refusals },
    (ctx) => listPromoCodes(ctx),
  );
  route.post(
    '/admin/promo-codes',
    {
      summary: 'Create a promo code',
      body: adminPromoCreateSchema,
      response: adminPromoSchema,
      status: 201,
      otherResponses: refusals,
    },
    (ctx, user, input) => createAdminPromo(ctx, actorOf(user), input),
  );
  route.patch(
    '/admin/promo-codes/:code',
    {
      summary: 'Edit a promo code',
      params: codeParams,
      body: adminPromoUpdateSchema,
      response: adminPromoSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => updateAdminPromo(ctx, actorOf(user), input),
  );
  route.post(
    '/admin/promo-codes/:code/expire',
    {
      summary: 'Expire a promo code now',
      params: codeParams,
      response: adminPromoSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => expireAdminPromo(ctx, actorOf(user), input),
  );
  route.get(
    '/admin/promo-codes/:code/redemptions',
    {
      summary: 'Who redeemed a promo code',
      params: codeParams,
      response: adminRedemptionListSchema,
      otherResponses: refusals,
    },
    (ctx, _user, input) => listRedemptions(ctx, input),
  );
};
