/**
 * Build of the three parts (electron-vite 6):
 * - main: an ES module (package.json has "type": "module"), node dependencies such as sharp left
 *   external. The built-in sandbox's media generation worker is a second entry,
 *   `out/main/generation-worker.js`, and the sandbox's `new URL('./generation-worker.ts', …)`
 *   is pointed at it, so demo-mode media are made off the main process's thread.
 * - preload: one CommonJS file, `out/preload/index.cjs` (a sandboxed preload cannot be an ES
 *   module nor require anything but electron, so everything is bundled into it).
 * - renderer: React, root src/renderer, built to out/renderer.
 */
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const root = import.meta.dirname;

/** Points the sandbox's worker URL at the built worker entry. */
function builtSandboxWorker(): Plugin {
  return {
    name: 'media-task-studio:built-sandbox-worker',
    renderChunk(code) {
      const from = '"./generation-worker.ts"';
      if (!code.includes(from)) return null;
      return { code: code.replaceAll(from, '"./generation-worker.js"'), map: null };
    },
  };
}

export default defineConfig({
  main: {
    plugins: [builtSandboxWorker()],
    build: {
      outDir: resolve(root, 'out/main'),
      externalizeDeps: true,
      lib: {
        entry: {
          index: resolve(root, 'src/main/index.ts'),
          'generation-worker': resolve(root, 'src/sandbox/generation-worker.ts'),
        },
        formats: ['es'],
      },
      rolldownOptions: {
        output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      externalizeDeps: false,
      lib: { entry: resolve(root, 'src/preload/index.ts'), formats: ['cjs'] },
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rolldownOptions: { input: resolve(root, 'src/renderer/index.html') },
    },
  },
});
