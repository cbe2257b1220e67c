import { spawn } from 'node:child_process';
import path from 'node:path';

// npm run dev: the API with restart-on-change (tsx watch) and the Vite dev server with hot
// reload; Vite proxies /api to the API. Open http://localhost:5173.

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/tsx/dist/cli.mjs'),
      'watch',
      '--expose-gc',
      '--clear-screen=false',
      'src/server/main.ts',
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PORT: process.env.PORT ?? '3000' },
    },
  ),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
