import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// What the browser runs share (scripts/e2e.ts, scripts/audit-web.ts, scripts/bench/web.ts and
// app-pages.ts): the web app built into a folder of the run's own, so runs side by side never
// overwrite each other, a free port, and the real server started on it.

export const root = path.resolve(import.meta.dirname, '..');

/** Builds the web app into `outDir` with Vite; exits the process when the build fails. */
export const buildWebApp = (outDir: string) => {
  const build = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', outDir],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
};

/** A TCP port free on 127.0.0.1 right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

/**
 * Starts the real server (src/server/main.ts) on 127.0.0.1:`port`, on the embedded database in
 * `dataDir`, serving the web app built into `webDir`; `env` adds or overrides variables.
 */
export const startServer = (options: {
  port: number;
  dataDir: string;
  webDir: string;
  env?: Record<string, string>;
}): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      WEB_DIR: options.webDir,
      PUBLIC_URL: `http://127.0.0.1:${options.port}`,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      ...options.env,
    },
  });

/** Resolves once `url` answers /api/health; throws when the server exits or `seconds` pass. */
export const waitForHealth = async (url: string, server: ChildProcess | null, seconds = 120) => {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (server && server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become healthy within ${seconds} s`);
};
