import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWebApp, freePort, root } from './build-web.ts';

// npm run test:e2e: finds Chromium, builds the web app, picks a free port and a fresh
// DATA_DIR, then runs the Playwright suite (which starts the built server itself).

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

// Each run builds into its own folder so runs side by side never overwrite each other.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-e2e-'));
const webDir = path.join(dataDir, 'web');
buildWebApp(webDir);

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
