/**
 * Bundles page-bridge-entry.ts (the preload's bridge code over page bindings) into one classic
 * script for page.addInitScript, with Vite's build API, once per test process.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENTRY = join(dirname(fileURLToPath(import.meta.url)), 'page-bridge-entry.ts');
let script: Promise<string> | null = null;

export function pageBridgeScript(): Promise<string> {
  script ??= bundle();
  return script;
}

async function bundle(): Promise<string> {
  const { build } = await import('vite');
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      minify: false,
      emptyOutDir: false,
      lib: { entry: ENTRY, formats: ['iife'], name: 'studioPageBridge', fileName: () => 'page-bridge.js' },
    },
  });
  const outputs = Array.isArray(output) ? output : [output];
  for (const result of outputs) {
    if (!('output' in result)) continue;
    const chunk = result.output.find((o) => o.type === 'chunk');
    if (chunk && chunk.type === 'chunk') return chunk.code;
  }
  throw new Error('the page bridge did not bundle into a script');
}
