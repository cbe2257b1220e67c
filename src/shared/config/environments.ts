// The per-environment settings of SPEC section 9. One row per environment, used by the
// browser (timeouts, retries) and the server (secure cookies, request caps, logging).

export const ENVIRONMENTS = ['development', 'staging', 'production', 'test'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const PLAID_ENVS = ['sandbox', 'development', 'production'] as const;
export type PlaidEnv = (typeof PLAID_ENVS)[number];

export type EnvironmentSettings = {
  /** Request timeout in milliseconds. */
  timeoutMs: number;
  retryAttempts: number;
  /** Requests per minute per client before the server answers 429; `null` where SPEC does not give one. */
  securityRequestCap: number | null;
  plaidEnv: PlaidEnv;
  debugMode: boolean;
  devTools: boolean;
  logging: boolean;
  mockData: boolean;
  secureCookies: boolean;
};

export const ENVIRONMENT_SETTINGS: Record<Environment, EnvironmentSettings> = {
  development: {
    timeoutMs: 3000,
    retryAttempts: 2,
    securityRequestCap: 1000,
    plaidEnv: 'production',
    debugMode: true,
    devTools: true,
    logging: true,
    mockData: false,
    secureCookies: false,
  },
  staging: {
    timeoutMs: 3000,
    retryAttempts: 2,
    securityRequestCap: 500,
    plaidEnv: 'sandbox',
    debugMode: true,
    devTools: true,
    logging: true,
    mockData: false,
    secureCookies: true,
  },
  production: {
    timeoutMs: 10000,
    retryAttempts: 3,
    securityRequestCap: 100,
    plaidEnv: 'production',
    debugMode: false,
    devTools: false,
    logging: false,
    mockData: false,
    secureCookies: true,
  },
  test: {
    timeoutMs: 5000,
    retryAttempts: 1,
    securityRequestCap: null,
    plaidEnv: 'sandbox',
    debugMode: false,
    devTools: false,
    logging: false,
    mockData: true,
    secureCookies: false,
  },
};

export const isEnvironment = (value: unknown): value is Environment =>
  typeof value === 'string' && (ENVIRONMENTS as readonly string[]).includes(value);

export const isPlaidEnv = (value: unknown): value is PlaidEnv =>
  typeof value === 'string' && (PLAID_ENVS as readonly string[]).includes(value);
