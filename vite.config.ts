import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 800,
  },
  server: {
    // `npm run dev:web` serves the app with hot reload; the API runs in `npm run dev`.
    proxy: { '/api': 'http://localhost:3000' },
  },
});
