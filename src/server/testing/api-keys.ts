import type { ApiKeyCreated, ApiKeyScope } from '../../shared/api-keys.ts';
import type { App } from '../app.ts';
import type { TestAnswer, TestMethod } from './api.ts';
import type { TestCompany } from './companies.ts';

// API keys in tests: one made through the API by the company's owner, and requests with it.

/** Creates a key for `company` as its owner through POST /api-keys; the answer holds the secret. */
export const createTestApiKey = async (
  app: App,
  company: TestCompany,
  scopes: ApiKeyScope[],
  options: { name?: string; expiresOn?: string; cookie?: string } = {},
): Promise<ApiKeyCreated> => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}/api-keys`,
    headers: { cookie: options.cookie ?? company.owner.cookie },
    payload: { name: options.name ?? `Key ${scopes.join(' ')}`, scopes, expiresOn: options.expiresOn },
  });
  if (res.statusCode !== 201) throw new Error(`create API key failed: ${res.statusCode} ${res.body}`);
  return res.json();
};

/** One request with `Authorization: Bearer <secret>` and no cookie, as a server-side client sends it; a JSON body parsed. */
export const callWithApiKey = async (
  app: App,
  secret: string,
  method: TestMethod,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<TestAnswer> => {
  const res = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${secret}`, ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, body: res.body ? (json ? res.json() : res.body) : undefined };
};
