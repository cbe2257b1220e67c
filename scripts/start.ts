import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// npm start: builds the web app when dist/web is missing or older than its sources, then
// starts the server.

const root = path.resolve(import.meta.dirname, '..');
const builtIndex = path.join(root, 'dist/web/index.html');
const SOURCES = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

const newestMtime = (p: string): number => {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
};

export const webBuildIsStale = () => {
  if (!fs.existsSync(builtIndex)) return true;
  const built = fs.statSync(builtIndex).mtimeMs;
  return SOURCES.some((s) => newestMtime(s) > built);
};

if (webBuildIsStale()) {
  console.log('Building the web app (dist/web is missing or stale)...');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) {
    console.error('kontor: the web build failed; see the errors above.');
    process.exit(result.status ?? 1);
  }
}

await import('../src/server/main.ts');
