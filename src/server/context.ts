import type { ServerConfig } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';

// What every module is built with. Modules take what they need from here rather than
// importing globals, so tests can build an app on a fresh database.
export type AppContext = {
  config: ServerConfig;
  database: DatabaseHandle;
  /** The clock; tests replace it to move time (token expiry, overdue invoices). */
  now: () => Date;
};
