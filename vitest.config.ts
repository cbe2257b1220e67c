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
    env: { TZ: 'UTC' },
  },
});
