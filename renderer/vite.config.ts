import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

// One build serves both the headless host (http://127.0.0.1) and the desktop app (custom
// protocol), so asset URLs stay relative ('./') and nothing assumes an origin.
export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react()],
  build: {
    outDir: `${projectRoot}out/renderer`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The CSP forbids inline scripts; Vite emits module scripts as files, never inline.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  server: { port: 5173, strictPort: false },
});
