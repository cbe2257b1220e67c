import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app lives in src/web and builds into dist/web, which the server serves.
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  // The browser detects the production environment from the same PUBLIC_DOMAIN the server
  // reads (baked in at build time: run `npm run build` after changing it).
  define: { 'import.meta.env.VITE_PUBLIC_DOMAIN': JSON.stringify(process.env.PUBLIC_DOMAIN ?? '') },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    // 127.0.0.1, not localhost: the API listens on IPv4 loopback by default (HOST), and
    // `localhost` may resolve to ::1 first. Host and Origin stay localhost:5173, which the
    // API trusts in development (src/server/http/origins.ts).
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT ?? 3000}`, changeOrigin: false } },
  },
});
