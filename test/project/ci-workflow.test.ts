/**
 * The GitHub Actions workflow that builds the installers where users are (Windows, macOS,
 * Linux) cannot run here: it is checked against the workflow schema (@action-validator/core,
 * which carries SchemaStore's github-workflow schema), and for what it must do: the README's
 * commands on the three systems, the installers kept as artifacts.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { validateWorkflow } = require('@action-validator/core') as {
  validateWorkflow(source: string): { errors: { title: string; path?: string; detail?: string }[] };
};
const yaml = require('js-yaml') as { load(text: string): unknown };

const source = readFileSync(join(import.meta.dirname, '../../.github/workflows/build.yml'), 'utf8');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

describe('.github/workflows/build.yml', () => {
  it('is a valid workflow', () => {
    expect(validateWorkflow(source).errors).toEqual([]);
  });

  it('is refused by the same check when a key is misspelled', () => {
    expect(validateWorkflow(source.replace('runs-on:', 'runs-onn:')).errors.length).toBeGreaterThan(0);
  });

  it('runs the README commands and packages on Windows, macOS and Linux, keeping the installers', () => {
    const workflow = yaml.load(source) as {
      jobs: Record<string, { strategy: { matrix: { os: string[] } }; steps: Step[] }>;
    };
    const job = Object.values(workflow.jobs)[0];
    expect(job?.strategy.matrix.os).toEqual(['ubuntu-latest', 'windows-latest', 'macos-latest']);
    const runs = (job?.steps ?? []).map((s) => s.run ?? '').join('\n');
    expect(runs).toContain('npm install');
    expect(runs).toContain('npm test');
    expect(runs).toContain('npm run dist');
    const upload = job?.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'));
    expect(String(upload?.with?.path)).toMatch(/\.exe[\s\S]*\.dmg[\s\S]*\.AppImage[\s\S]*\.deb/);
  });
});
