import { type Environment, isEnvironment } from './environments.ts';

// Environment detection from the host name (SPEC section 4). The result is cached for 60 s;
// an `env` query parameter naming one of the four environments overrides detection (that is
// how `switchEnvironment` works across a reload).

export const DETECTION_CACHE_MS = 60_000;

/** Hosting platforms whose default domains mean a deployed (production) build. */
export const HOSTING_PLATFORM_SUFFIXES = [
  'vercel.app',
  'netlify.app',
  'herokuapp.com',
  'onrender.com',
  'fly.dev',
  'pages.dev',
  'web.app',
  'firebaseapp.com',
  'github.io',
  'railway.app',
  'azurewebsites.net',
  'appspot.com',
] as const;

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

const isIpAddress = (host: string) => IPV4.test(host) || host.includes(':') || host.startsWith('[');

export type DetectInput = {
  /** `null` outside a browser. */
  hostname: string | null;
  /** The product's own production domain (PUBLIC_DOMAIN). */
  productionDomain?: string | null;
  /** The page's query string, for the `env` override. */
  search?: string;
};

export const detectEnvironmentUncached = ({
  hostname,
  productionDomain,
  search,
}: DetectInput): Environment => {
  if (search) {
    const override = new URLSearchParams(search).get('env');
    if (isEnvironment(override)) return override;
  }
  if (hostname === null) return 'production';
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost') || isIpAddress(host)) return 'development';
  const domain = productionDomain?.toLowerCase().trim();
  if (domain && (host === domain || host.endsWith(`.${domain}`))) return 'production';
  // A platform's own suffix (fly.dev, say) must not make every app on it look like staging:
  // only the part of the name that the project chose is read for staging/dev/test.
  const platform = HOSTING_PLATFORM_SUFFIXES.find((suffix) => host === suffix || host.endsWith(`.${suffix}`));
  const ownPart = platform ? host.slice(0, Math.max(0, host.length - platform.length - 1)) : host;
  if (/staging|dev|test/.test(ownPart)) return 'staging';
  if (platform) return 'production';
  return 'production';
};

type CacheEntry = { key: string; value: Environment; at: number };

export const createEnvironmentDetector = (now: () => number = Date.now) => {
  let cache: CacheEntry | null = null;
  return {
    detect(input: DetectInput): Environment {
      const key = `${input.hostname}|${input.productionDomain ?? ''}|${input.search ?? ''}`;
      const t = now();
      if (cache && cache.key === key && t - cache.at < DETECTION_CACHE_MS) return cache.value;
      const value = detectEnvironmentUncached(input);
      cache = { key, value, at: t };
      return value;
    },
    clearCache() {
      cache = null;
    },
    /** Clears the cache and detects again. */
    forceRefresh(input: DetectInput): Environment {
      cache = null;
      return this.detect(input);
    },
  };
};

export type EnvironmentDetector = ReturnType<typeof createEnvironmentDetector>;

/**
 * The URL to reload with when switching environment, or `null` (after logging
 * 'Invalid environment') for a name that is not one of the four.
 */
export const environmentSwitchUrl = (
  href: string,
  target: string,
  log: (message: string) => void = console.error,
): string | null => {
  if (!isEnvironment(target)) {
    log('Invalid environment');
    return null;
  }
  const url = new URL(href);
  url.searchParams.set('env', target);
  return url.toString();
};
