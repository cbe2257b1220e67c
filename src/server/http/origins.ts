import net from 'node:net';
import os from 'node:os';
import type { Environment } from '../../shared/config/environments.ts';

// Which browser origins the server trusts (issue 11 §4, §5): Better Auth's trustedOrigins and
// the cross-site refusal on /api use this one list. Production and staging trust exactly
// PUBLIC_URL and CORS_ORIGINS. A developer's machine (development, test) also trusts the
// addresses the server is really reachable at: loopback on its port and on the Vite dev
// port, and the machine's own network addresses when HOST exposes it.

/** The port `npm run dev` serves the web app on (vite.config.ts), proxying /api here. */
export const VITE_DEV_PORT = 5173;

const loopback = new net.BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms (::ffff:127.0.0.1). */
export const isLoopbackAddress = (address: string | undefined | null): boolean => {
  if (!address) return false;
  const family = net.isIP(address);
  if (family === 0) return false;
  return loopback.check(address, family === 6 ? 'ipv6' : 'ipv4');
};

/** A Host header or URL host name that names this machine's loopback interface. */
export const isLoopbackHostname = (hostname: string): boolean => {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || isLoopbackAddress(host);
};

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
const ALL_INTERFACES = new Set(['0.0.0.0', '::', '[::]']);

export type OriginConfig = {
  environment: Environment;
  port: number;
  host: string;
  publicUrl: string;
  corsOrigins: readonly string[];
};

/** The origin (scheme, host and port) of a URL; null for an opaque or unparsable one. */
export const originOf = (url: string): string | null => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
};

const urlHost = (address: string) => (net.isIPv6(address) ? `[${address}]` : address);

/** The machine's own non-loopback addresses and name, for HOST=0.0.0.0 in development. */
const networkHosts = (): string[] => {
  const hosts: string[] = [];
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (entry.internal) continue;
      // Link-local IPv6 needs a zone id (fe80::1%eth0) that no browser puts in an Origin.
      if (entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80:')) continue;
      hosts.push(urlHost(entry.address));
    }
  }
  const name = os.hostname();
  if (name) hosts.push(name.toLowerCase());
  return hosts;
};

export const isLocalEnvironment = (environment: Environment) =>
  environment === 'development' || environment === 'test';

/** Every origin the server trusts, computed once at start (restart after a network change). */
export const trustedOrigins = (config: OriginConfig): string[] => {
  const origins = new Set<string>();
  const add = (url: string) => {
    const origin = originOf(url);
    if (origin) origins.add(origin);
  };
  add(config.publicUrl);
  for (const origin of config.corsOrigins) add(origin);
  if (isLocalEnvironment(config.environment)) {
    for (const host of LOOPBACK_HOSTS) {
      add(`http://${host}:${config.port}`);
      add(`http://${host}:${VITE_DEV_PORT}`);
    }
    const host = config.host.trim();
    const exposed = ALL_INTERFACES.has(host)
      ? networkHosts()
      : isLoopbackHostname(host)
        ? []
        : [urlHost(host.replace(/^\[|\]$/g, ''))];
    for (const h of exposed) add(`http://${h}:${config.port}`);
  }
  return [...origins];
};
