// The part of autocannon's programmatic API scripts/bench/load.ts uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  type RequestParams = {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  };
  type Request = RequestParams & {
    setupRequest?: (req: Record<string, unknown>, context: Record<string, unknown>) => RequestParams;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  };
  type Histogram = { average: number; p50: number; p90: number; p99: number; max: number };
  type Result = {
    requests: Histogram & { total: number; sent: number };
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  type Options = {
    url: string;
    connections?: number;
    overallRate?: number;
    duration?: number;
    timeout?: number;
    requests?: Request[];
  };
  type Instance = EventEmitter & PromiseLike<Result>;
  const autocannon: (options: Options) => Instance;
  export default autocannon;
  export type { Request, Result, Options, Instance };
}
