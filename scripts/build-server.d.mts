// Types of scripts/build-server.mjs (plain JavaScript, so `npm start` needs no TypeScript).
export const SERVER_SOURCES: string[];
export const builtServerEntry: string;
export const buildServer: () => Promise<void>;
export const isStale: (built: string, sources: string[]) => boolean;
export const serverIsStale: () => boolean;
export const EXTERNAL: string[];
