// Compiles the server (src/server and src/shared, without tests and test helpers) to
// JavaScript in dist/server and dist/shared, one output file per source file, so that
// `npm start` runs plain JavaScript and starts without compiling TypeScript (issue 20 §6,
// decision 0039). esbuild strips the types; every import stays an import, with a relative
// `./x.ts` written as `./x.js`. The layout mirrors src/, so paths the server computes from its
// own location (dist/web beside it, db/migrations) are the same as when it runs from source.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_SOURCES = ['src/server', 'src/shared'];
const OUT = path.join(root, 'dist');
export const builtServerEntry = path.join(OUT, 'server/main.js');

/** The newest modification time of a file or anything below a folder (0 when it is missing). */
const newestMtime = (p) => {
  const full = path.join(root, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
};

/** Whether `built` is missing or older than any of `sources` (paths from the repository root). */
export const isStale = (built, sources) =>
  !fs.existsSync(built) || sources.some((s) => newestMtime(s) > fs.statSync(built).mtimeMs);

/** Whether the compiled server is missing or older than its sources, the lockfile or this script. */
export const serverIsStale = () =>
  isStale(builtServerEntry, [...SERVER_SOURCES, 'package-lock.json', 'scripts/build-server.mjs']);

const sourceFiles = () => {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing') walk(full);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(full);
    }
  };
  for (const dir of SERVER_SOURCES) walk(path.join(root, dir));
  return files;
};

// Every import is left as it is written (packages resolved by Node at run time), except that
// a relative TypeScript path names the JavaScript file written beside it.
const keepImports = {
  name: 'kontor-keep-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return null;
      const relative = args.path.startsWith('./') || args.path.startsWith('../');
      return { path: relative ? args.path.replace(/\.ts$/, '.js') : args.path, external: true };
    });
  },
};

export const buildServer = async () => {
  for (const dir of SERVER_SOURCES)
    fs.rmSync(path.join(OUT, path.basename(dir)), { recursive: true, force: true });
  await build({
    entryPoints: sourceFiles(),
    outbase: path.join(root, 'src'),
    outdir: OUT,
    bundle: true,
    plugins: [keepImports],
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`kontor: server compiled to dist/server in ${Math.round(performance.now() - started)} ms`);
}
