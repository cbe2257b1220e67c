import { defineConfig, devices } from '@playwright/test';

// Run through `npm run test:e2e`, which sets CHROME_PATH, E2E_PORT and E2E_DATA_DIR.
const port = Number(process.env.E2E_PORT ?? 3999);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'e2e-artifacts/results',
  // Files run side by side on two workers (tests within a file in order). Tests that share
  // server-wide state keep apart: the contact form's rate limit is counted per forwarded
  // address (site.spec.ts). E2E_WORKERS=1 runs one file at a time.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: {
    command: 'node --expose-gc --import tsx src/server/main.ts',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.tmp/e2e-data',
      APP_ENV: 'test',
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      // One proxy hop is trusted, so a spec can write from its own address (X-Forwarded-For)
      // where a per-address limit would otherwise be shared between workers.
      TRUST_PROXY: 'true',
      DATABASE_URL: '',
      WEB_DIR: process.env.E2E_WEB_DIR ?? '',
      // The whole suite signs up dozens of users from one address within a minute.
      AUTH_SIGNUP_LIMIT_PER_MINUTE: '500',
      // e2e/admin.spec.ts signs up as this platform admin.
      ADMIN_EMAILS: 'admin@e2e.test',
    },
  },
});
