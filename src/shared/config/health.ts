import type { AppConfig } from './config.ts';

// The client's health check (SPEC section 7): GET {api}/api/health, aborted after the
// environment's TIMEOUT; a non-OK status is a failure.

export type HealthResult =
  | ({ healthy: true; environment: string; apiUrl: string; plaidEnv: string } & Record<string, unknown>)
  | { healthy: false; environment: string; error: string };

export const checkHealth = async (
  config: Pick<AppConfig, 'API_URL' | 'ENVIRONMENT' | 'PLAID_ENV' | 'TIMEOUT'>,
  fetchImpl: typeof fetch = fetch,
): Promise<HealthResult> => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.TIMEOUT);
  try {
    const response = await fetchImpl(new URL('/api/health', config.API_URL), { signal: controller.signal });
    if (!response.ok) throw new Error(`Health check failed: ${response.status}`);
    const body = (await response.json()) as Record<string, unknown>;
    return {
      ...body,
      healthy: true,
      environment: config.ENVIRONMENT,
      apiUrl: config.API_URL,
      plaidEnv: config.PLAID_ENV,
    };
  } catch (error) {
    const message = controller.signal.aborted
      ? `Health check failed: timed out after ${config.TIMEOUT} ms`
      : error instanceof Error
        ? error.message
        : String(error);
    return { healthy: false, environment: config.ENVIRONMENT, error: message };
  } finally {
    clearTimeout(timer);
  }
};
