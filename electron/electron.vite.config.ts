import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { rendererBuildOptions } from '../renderer/vite.config.js';

// npm runs scripts from the project root; the config file itself is bundled to a temp location.
const root = process.cwd();
// TOOLWRIGHT_OUT_DIR: where the build goes (out/ by default); the build test builds elsewhere.
const out = process.env['TOOLWRIGHT_OUT_DIR'] ? resolve(process.env['TOOLWRIGHT_OUT_DIR']) : resolve(root, 'out');

export default defineConfig({
  main: {
    build: {
      outDir: resolve(out, 'main'),
      // Native and dynamic-require packages stay external and load from node_modules.
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(root, 'electron/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: resolve(out, 'preload'),
      // Sandboxed preloads cannot load ESM or node_modules: one self-contained CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react()],
    build: {
      ...rendererBuildOptions,
      outDir: resolve(out, 'renderer'),
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
