import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// What the browser runs share (scripts/e2e.ts, scripts/bench/web.ts): the web app built into a
// folder of the run's own, so runs side by side never overwrite each other, and a free port.

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
