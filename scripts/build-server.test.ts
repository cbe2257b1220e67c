import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer, builtServerEntry } from './build-server.mjs';
import { freePort, root, waitForHealth } from './build-web.ts';

// `npm start` runs the compiled server (decision 0039). This compiles it as `npm start` does
// and starts it on a fresh embedded database: a source file that only works under tsx (a
// JSON import without its attribute, a path computed from the source tree…) fails here.

let server: ChildProcess | null = null;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-compiled-'));
afterAll(() => {
  server?.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('builds, migrates a new database, answers health and the API document', async () => {
    await buildServer();
    expect(fs.existsSync(builtServerEntry)).toBe(true);
    expect(fs.existsSync(path.join(root, 'dist/server/db/migrations'))).toBe(true);
    const port = await freePort();
    server = spawn(process.execPath, ['--enable-source-maps', builtServerEntry], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        APP_ENV: 'test',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: '',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, server, 90);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    const doc = (await (await fetch(`${url}/api/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(100);
  }, 180_000);
});
