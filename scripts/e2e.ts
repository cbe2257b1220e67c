import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// npm run test:e2e: finds Chromium, builds the web app, picks a free port and a fresh
// DATA_DIR, then runs the Playwright suite (which starts the built server itself).

const root = path.resolve(import.meta.dirname, '..');

const findChromium = () => {
  const candidates = [
    process.env.CHROME_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((c) => c && fs.existsSync(c)) ?? null;
};

const chromium = findChromium();
if (!chromium) {
  console.error(
    'kontor e2e: no Chromium found. Install it with `apt-get install chromium` (Debian/Ubuntu) or set CHROME_PATH to a Chromium or Chrome binary.',
  );
  process.exit(1);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

// Each run builds into its own folder so runs side by side never overwrite each other.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-e2e-'));
const webDir = path.join(dataDir, 'web');
const build = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn', '--outDir', webDir],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const port = await freePort();
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      CHROME_PATH: chromium,
      E2E_PORT: String(port),
      E2E_DATA_DIR: path.join(dataDir, 'data'),
      E2E_WEB_DIR: webDir,
    },
  },
);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
