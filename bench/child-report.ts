/**
 * Runs this benchmark's own script again as a child (`--child <variant> <arg>`), so a variant's
 * peak memory is measured in a process of its own, and returns the JSON report the child prints
 * as its last line of standard output.
 */
import { spawn } from 'node:child_process';

export function runChildReport<Report>(script: string, variant: string, arg: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--child', variant, arg], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (data: Buffer) => {
      out += data.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || line === '') reject(new Error(`${variant} child exited with ${code}`));
      else resolve(JSON.parse(line) as Report);
    });
  });
}
