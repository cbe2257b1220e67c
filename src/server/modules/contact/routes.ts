import {
  CONTACT_RATE_LIMIT,
  CONTACT_RATE_LIMITED_MESSAGE,
  contactMessageSchema,
  contactReceiptSchema,
} from '../../../shared/contact.ts';
import { AppError } from '../../../shared/errors.ts';
import { errorBody } from '../../http/errors.ts';
import { publicRoutePlugin } from '../../http/routes.ts';
import { submitContactMessage } from './service.ts';

export const contactRoutes = publicRoutePlugin(['public'], (route) => {
  route.post(
    '/contact',
    {
      summary: 'Send a message through the public contact form',
      body: contactMessageSchema,
      response: contactReceiptSchema,
      status: 201,
      otherResponses: { 400: errorBody, 429: errorBody },
      // Applies even where the global cap is off (APP_ENV=test): the form is anonymous.
      config: {
        rateLimit: {
          ...CONTACT_RATE_LIMIT,
          errorResponseBuilder: () => new AppError(429, 'rate_limited', CONTACT_RATE_LIMITED_MESSAGE),
        },
      },
    },
    (ctx, message, { request }) =>
      submitContactMessage(ctx, message, {
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
      }),
  );
});
