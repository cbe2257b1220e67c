import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Several app processes on one database behind one port (issue 20 §1, §5): the two-nodes test
// and the load bench (scripts/bench/load.ts) start real server processes with these helpers
// and put the round-robin proxy in front of them.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = http.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

export type AppNode = { port: number; child: ChildProcess; output: string[]; dataDir: string };

/**
 * One server process on `port` with its own DATA_DIR (nothing shared on disk). `compiled`
 * runs dist/server/main.js (built by `npm run build:server`) instead of the TypeScript source
 * through tsx, so no compiler is measured.
 */
export const startNode = (
  port: number,
  env: Record<string, string>,
  options: { compiled?: boolean } = {},
): AppNode => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-node-'));
  const output: string[] = [];
  const args = options.compiled ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => output.push(String(chunk)));
  child.stderr?.on('data', (chunk) => output.push(String(chunk)));
  return { port, child, output, dataDir };
};

export const waitHealthy = async (node: AppNode, deadline: number) => {
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null) throw new Error(`node on ${node.port} exited: ${node.output.join('')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${node.port}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`node on ${node.port} did not start: ${node.output.join('')}`);
};

export const stopNode = async (node: AppNode) => {
  if (node.child.exitCode === null && node.child.signalCode === null) {
    const exited = new Promise((resolve) => node.child.once('exit', resolve));
    node.child.kill('SIGTERM');
    const timer = setTimeout(() => node.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  fs.rmSync(node.dataDir, { recursive: true, force: true });
};

export type RoundRobinProxy = { server: http.Server; port: number; served: number[] };

/**
 * A round-robin HTTP proxy: request n goes to node n mod the number of nodes; the answer names
 * the node (x-two-nodes-backend). Upstream connections are kept alive, as a load balancer's are.
 */
export const startProxy = (ports: number[], options: { record?: boolean } = {}) => {
  let next = 0;
  const served: number[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const index = next++ % ports.length;
    if (options.record !== false) served.push(index);
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: ports[index],
        method: req.method,
        path: req.url,
        agent,
        // As a load balancer does: the client's address (the caller may name one per flow).
        headers: { ...req.headers, 'x-forwarded-for': req.headers['x-forwarded-for'] ?? '127.0.0.1' },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-two-nodes-backend': String(index) });
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (res.headersSent) {
        res.destroy(error);
        return;
      }
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
    req.pipe(upstream);
  });
  server.on('close', () => agent.destroy());
  return new Promise<RoundRobinProxy>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, port: (server.address() as AddressInfo).port, served }),
    ),
  );
};
