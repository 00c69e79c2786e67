import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
          // No test file runs across midnight UTC (src/server/test/midnight-guard.ts).
          setupFiles: ['src/server/test/midnight-guard.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
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
