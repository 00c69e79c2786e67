import { lingui } from '@lingui/vite-plugin';
import react from '@vitejs/plugin-react';
import { linguiMacros } from './scripts/lingui-macros.mjs';
import { configDefaults, defineConfig } from 'vitest/config';

// Tests that run servers as processes of their own on PostgreSQL: once per run, in npm test.
const PROCESS_TESTS = ['src/server/scale-out.test.ts', 'src/server/db-restart.test.ts'];

export default defineConfig({
  test: {
    // Two cores: a few workers, each with its own database.
    maxWorkers: 2,
    // Runs once for every project: on PostgreSQL it prepares the migrated template database.
    globalSetup: ['src/server/test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['src/shared/**/*.test.ts', 'src/server/**/*.test.ts'],
          // Runs once, in its own project: it needs PostgreSQL whichever engine this project is on.
          exclude: [...configDefaults.exclude, ...PROCESS_TESTS],
          // No test file runs across midnight UTC (src/server/test/midnight-guard.ts), nor sends
          // statements together on one connection (src/server/test/busy-connection-guard.ts).
          setupFiles: ['src/server/test/midnight-guard.ts', 'src/server/test/busy-connection-guard.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // nginx in front of three server processes on one PostgreSQL database: once per run, in
          // npm test, and never again in the server project's second run on PostgreSQL.
          name: 'scale-out',
          environment: 'node',
          include: PROCESS_TESTS,
          setupFiles: ['src/server/test/midnight-guard.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [linguiMacros(), lingui({ failOnMissing: true, failOnCompileError: true }), react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.tsx', 'src/web/**/*.test.ts'],
          setupFiles: ['src/server/test/midnight-guard.ts', 'src/web/test/setup.ts'],
          // Component tests start the real server and database in-process.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
