// npm start: builds what is missing or older than its sources — the web app (Vite, into
// dist/web) and the server (esbuild, bundled into dist/server: scripts/build-server.mjs, decision
// 0048) — then runs the compiled server. Plain JavaScript, so starting needs no TypeScript
// compiler; esbuild itself is loaded only when the server has to be built.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, builtServerEntry, isStale, serverIsStale } from './build-server.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_SOURCES = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'];

if (isStale(path.join(root, 'dist/web/index.html'), WEB_SOURCES)) {
  console.log('Building the web app (dist/web is missing or stale)...');
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) {
    console.error('kontor: the web build failed; see the errors above.');
    process.exit(result.status ?? 1);
  }
}

if (serverIsStale()) {
  console.log('Compiling the server (dist/server is missing or stale)...');
  await buildServer();
}

await import(builtServerEntry);
