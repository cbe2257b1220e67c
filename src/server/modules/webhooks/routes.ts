import {
  webhookDeliveryDetailSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookEndpointInputSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointWithSecretSchema,
  webhookEventTypesSchema,
} from '../../../shared/webhooks.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  getWebhookEndpointSecret,
  listWebhookDeliveries,
  listWebhookEndpoints,
  listWebhookEventTypes,
  redeliverWebhook,
  rotateWebhookSecret,
  sendWebhookTest,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from './service.ts';

// A company's webhook endpoints and delivery log (docs/webhooks.md). Owners and admins (the
// roles with `manage_members`) manage endpoints; every member may read them and the log.

const MANAGE = 'manage_members' as const;
const notFound = { 404: errorBody };
const refused = { 400: errorBody, 404: errorBody, 409: errorBody };

export const webhookRoutes = companyRoutePlugin(['webhooks'], (route) => {
  route.get(
    '/webhooks/event-types',
    {
      summary: 'The webhook event types (the catalogue; payloads in the `webhooks` section)',
      permission: 'read',
      response: webhookEventTypesSchema,
    },
    () => listWebhookEventTypes(),
  );
  route.get(
    '/webhooks/endpoints',
    { summary: "The company's webhook endpoints", permission: 'read', response: webhookEndpointListSchema },
    (ctx, member) => listWebhookEndpoints(ctx, member),
  );
  route.post(
    '/webhooks/endpoints',
    {
      summary:
        'Add a webhook endpoint; answers its signing secret (400 `webhook_url_not_allowed` for a refused URL)',
      permission: MANAGE,
      body: webhookEndpointInputSchema,
      response: webhookEndpointWithSecretSchema,
      status: 201,
      otherResponses: { 400: errorBody, 409: errorBody },
    },
    createWebhookEndpoint,
  );
  route.get(
    '/webhooks/endpoints/:endpointId',
    {
      summary: 'One webhook endpoint',
      permission: 'read',
      response: webhookEndpointSchema,
      otherResponses: notFound,
    },
    getWebhookEndpoint,
  );
  route.patch(
    '/webhooks/endpoints/:endpointId',
    {
      summary: "Change an endpoint's URL, description or event types",
      permission: MANAGE,
      body: webhookEndpointUpdateSchema,
      response: webhookEndpointSchema,
      otherResponses: refused,
    },
    updateWebhookEndpoint,
  );
  route.delete(
    '/webhooks/endpoints/:endpointId',
    {
      summary: 'Delete an endpoint and its delivery log',
      permission: MANAGE,
      response: null,
      otherResponses: notFound,
    },
    deleteWebhookEndpoint,
  );
  route.get(
    '/webhooks/endpoints/:endpointId/secret',
    {
      summary: "An endpoint's signing secret",
      permission: MANAGE,
      response: webhookEndpointWithSecretSchema,
      otherResponses: notFound,
    },
    getWebhookEndpointSecret,
  );
  route.post(
    '/webhooks/endpoints/:endpointId/rotate-secret',
    {
      summary: 'Replace the signing secret (the old one stops signing at once)',
      permission: MANAGE,
      response: webhookEndpointWithSecretSchema,
      otherResponses: notFound,
    },
    rotateWebhookSecret,
  );
  route.post(
    '/webhooks/endpoints/:endpointId/enable',
    {
      summary: 'Enable an endpoint (clears its failure streak)',
      permission: MANAGE,
      response: webhookEndpointSchema,
      otherResponses: notFound,
    },
    (ctx, member, input) => setWebhookEndpointEnabled(ctx, member, input, true),
  );
  route.post(
    '/webhooks/endpoints/:endpointId/disable',
    {
      summary: 'Disable an endpoint (no new deliveries; waiting ones fail)',
      permission: MANAGE,
      response: webhookEndpointSchema,
      otherResponses: notFound,
    },
    (ctx, member, input) => setWebhookEndpointEnabled(ctx, member, input, false),
  );
  route.post(
    '/webhooks/endpoints/:endpointId/test',
    {
      summary: 'Send a `webhook.test` event to the endpoint; answers the queued delivery',
      permission: MANAGE,
      response: webhookDeliverySchema,
      status: 201,
      otherResponses: { 404: errorBody, 409: errorBody },
    },
    sendWebhookTest,
  );
  route.get(
    '/webhooks/endpoints/:endpointId/deliveries',
    {
      summary: "An endpoint's deliveries, newest first (a cursor page)",
      permission: 'read',
      query: webhookDeliveryQuerySchema,
      response: webhookDeliveryPageSchema,
      otherResponses: { 400: errorBody, 404: errorBody },
    },
    listWebhookDeliveries,
  );
  route.get(
    '/webhooks/deliveries/:deliveryId',
    {
      summary: 'One delivery with its last request and response',
      permission: 'read',
      response: webhookDeliveryDetailSchema,
      otherResponses: notFound,
    },
    getWebhookDelivery,
  );
  route.post(
    '/webhooks/deliveries/:deliveryId/redeliver',
    {
      summary: 'Send a delivery again now',
      permission: MANAGE,
      response: webhookDeliverySchema,
      otherResponses: { 404: errorBody, 409: errorBody },
    },
    redeliverWebhook,
  );
});
