import { buildConfig } from '../../shared/config/config.ts';
import { createEnvironmentDetector, environmentSwitchUrl } from '../../shared/config/detect.ts';

// The browser's configuration (SPEC sections 3 and 4): environment detected from the host
// name (cached 60 s), API on the same origin.

const detector = createEnvironmentDetector();

const input = () => ({
  hostname: typeof window === 'undefined' ? null : window.location.hostname,
  search: typeof window === 'undefined' ? '' : window.location.search,
  productionDomain: import.meta.env.VITE_PUBLIC_DOMAIN ?? null,
});

export const detectEnvironment = () => detector.detect(input());

export const forceRefreshEnvironment = () => detector.forceRefresh(input());

export const appConfig = () => buildConfig(detectEnvironment(), { apiUrl: window.location.origin });

/** Reloads the page in another environment; logs 'Invalid environment' for an unknown name. */
export const switchEnvironment = (target: string) => {
  const url = environmentSwitchUrl(window.location.href, target);
  if (!url) return false;
  detector.clearCache();
  window.location.assign(url);
  return true;
};
