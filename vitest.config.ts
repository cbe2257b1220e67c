import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the CPUs: one on CI's 2 cores. Test files each
    // open their own database, so two run side by side safely (CI time, see docs/performance.md).
    maxWorkers: 2,
    // A worker runs its files one after another in one module graph instead of re-importing the
    // app for every file (about 2 s of CPU per file; half the pass's CPU time on CI). Test files
    // keep their own database and app (beforeAll/afterAll); module-level state must not leak
    // between files — a test that relies on a fresh module is written not to (ledger/ids.test.ts).
    isolate: false,
    env: { TZ: 'UTC' },
  },
});
