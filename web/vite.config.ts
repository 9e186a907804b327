import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The dev server forwards the API, health check, MCP and the WebSocket to a running `instantstart serve`. */
const backend = process.env.INSTANTSTART_URL ?? 'http://127.0.0.1:3099';

export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  // The UI's two aliases (also in web/tsconfig.json): the shared UI kit, and the domain's schemas and pure rules.
  resolve: {
    alias: {
      '@kit': fileURLToPath(new URL('./kit', import.meta.url)),
      '@domain': fileURLToPath(new URL('../src/domain', import.meta.url)),
    },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Cloudscape is large even when imported per component; the warning would only be noise.
    chunkSizeWarningLimit: 4000,
  },
  server: {
    port: 5173,
    // The capabilities' UI lives beside their backend, in ../src/capabilities/<name>/ui.
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: {
      '/api': { target: backend, changeOrigin: false, ws: true },
      '/healthz': { target: backend },
      '/mcp': { target: backend },
    },
  },
});
