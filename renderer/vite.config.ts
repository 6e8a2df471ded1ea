import { defineConfig, type BuildOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const rendererRoot = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * What both renderer builds share: this one (the browser, served by the headless host) and the
 * desktop one (electron/electron.vite.config.ts, whose renderer electron-vite leaves unminified
 * by default). Minified, because the first screen's JavaScript is what a start waits for; source
 * maps are written beside the chunks ('hidden': no chunk points at them, so the app never loads
 * them) for reading a stack trace from a report.
 */
export const rendererBuildOptions: BuildOptions = {
  minify: 'esbuild',
  sourcemap: 'hidden',
  // The CSP forbids inline scripts; Vite emits module scripts as files, never inline.
  modulePreload: { polyfill: false },
  chunkSizeWarningLimit: 1500,
};

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
    ...rendererBuildOptions,
  },
  server: { port: 5173, strictPort: false },
});
