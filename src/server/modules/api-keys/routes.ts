import {
  apiKeyCreateSchema,
  apiKeyCreatedSchema,
  apiKeyListSchema,
  apiKeySchema,
} from '../../../shared/api-keys.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { createApiKey, listApiKeys, revokeApiKey } from './service.ts';

// API keys of a company (docs/api.md "Authentication"): owners and admins only
// (manage_members), and never through an API key (http/tenancy.ts refuses it).

export const apiKeyRoutes = companyRoutePlugin(['api keys'], (route) => {
  route.get(
    '/api-keys',
    {
      summary: "The company's API keys (never the keys themselves)",
      permission: 'manage_members',
      response: apiKeyListSchema,
    },
    listApiKeys,
  );
  route.post(
    '/api-keys',
    {
      summary: 'Create an API key: the answer holds the whole key, this once',
      permission: 'manage_members',
      body: apiKeyCreateSchema,
      response: apiKeyCreatedSchema,
      status: 201,
    },
    createApiKey,
  );
  route.post(
    '/api-keys/:keyId/revoke',
    {
      summary: 'Revoke an API key: it stops working at once',
      permission: 'manage_members',
      response: apiKeySchema,
      otherResponses: { 409: errorBody },
    },
    revokeApiKey,
  );
});
