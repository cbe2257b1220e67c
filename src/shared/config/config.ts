import {
  ENVIRONMENT_SETTINGS,
  type Environment,
  PLAID_ENVS,
  type PlaidEnv,
  isEnvironment,
} from './environments.ts';

// The configuration object of SPEC section 3, built for one environment and validated with
// the exact messages of SPEC section 5.

export const APP_NAME = 'Kontor';
export const APP_VERSION = '1.0.0';

export type AppConfig = {
  API_URL: string;
  PLAID_ENV: PlaidEnv;
  ENVIRONMENT: Environment;
  DEBUG_MODE: boolean;
  LOGGING_ENABLED: boolean;
  TIMEOUT: number;
  RETRY_ATTEMPTS: number;
  ENABLE_DEV_TOOLS: boolean;
  MOCK_DATA: boolean;
  PERFORMANCE_MONITORING: boolean;
  CORS_ORIGINS: string[];
  SECURE_COOKIES: boolean;
  APP_NAME: string;
  APP_VERSION: string;
  /** Shown in the app chrome outside production, e.g. 'DEV'; empty in production. */
  ENVIRONMENT_BADGE: string;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const REQUIRED = ['API_URL', 'PLAID_ENV', 'ENVIRONMENT'] as const;

/** Throws ConfigError with SPEC's messages; returns the value typed when it is valid. */
export const validateConfig = (config: Partial<Record<keyof AppConfig, unknown>>): AppConfig => {
  const missing = REQUIRED.filter(
    (key) => config[key] === undefined || config[key] === null || config[key] === '',
  );
  if (missing.length > 0) throw new ConfigError(`Missing required configuration: ${missing.join(', ')}`);
  const apiUrl = String(config.API_URL);
  let parsed: URL | null = null;
  try {
    parsed = new URL(apiUrl);
  } catch {
    parsed = null;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol))
    throw new ConfigError(`Invalid API_URL format: ${apiUrl}`);
  const plaidEnv = String(config.PLAID_ENV);
  if (!(PLAID_ENVS as readonly string[]).includes(plaidEnv)) {
    throw new ConfigError(`Invalid PLAID_ENV: ${plaidEnv}. Must be one of: ${PLAID_ENVS.join(', ')}`);
  }
  if (!isEnvironment(config.ENVIRONMENT))
    throw new ConfigError(`Invalid environment: ${String(config.ENVIRONMENT)}`);
  return config as AppConfig;
};

const BADGES: Record<Environment, string> = {
  development: 'DEV',
  staging: 'STAGING',
  production: '',
  test: 'TEST',
};

/** Builds the configuration of one environment. An unknown name falls back to development (SPEC section 4). */
export const buildConfig = (
  environment: string,
  overrides: { apiUrl: string; plaidEnv?: string; corsOrigins?: string[]; performanceMonitoring?: boolean },
): AppConfig => {
  const env: Environment = isEnvironment(environment) ? environment : 'development';
  const settings = ENVIRONMENT_SETTINGS[env];
  return validateConfig({
    API_URL: overrides.apiUrl,
    PLAID_ENV: overrides.plaidEnv ?? settings.plaidEnv,
    ENVIRONMENT: env,
    DEBUG_MODE: settings.debugMode,
    LOGGING_ENABLED: settings.logging,
    TIMEOUT: settings.timeoutMs,
    RETRY_ATTEMPTS: settings.retryAttempts,
    ENABLE_DEV_TOOLS: settings.devTools,
    MOCK_DATA: settings.mockData,
    PERFORMANCE_MONITORING: overrides.performanceMonitoring ?? env === 'production',
    CORS_ORIGINS: overrides.corsOrigins ?? [],
    SECURE_COOKIES: settings.secureCookies,
    APP_NAME,
    APP_VERSION,
    ENVIRONMENT_BADGE: BADGES[env],
  });
};

/** The bank-linking webhook address for a configuration (SPEC section 7). */
export const plaidWebhookUrl = (config: Pick<AppConfig, 'API_URL'>) =>
  new URL('/api/plaid/webhook', config.API_URL).toString();
