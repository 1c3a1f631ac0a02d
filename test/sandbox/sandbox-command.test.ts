/** The `sandbox` command in a real child process: its one line, its key, its signals, its bad flags. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSandboxArgs, SandboxUsageError } from '../../src/sandbox/index.ts';

const commandModule = fileURLToPath(new URL('../../src/sandbox/sandbox-command.ts', import.meta.url));
let dir: string;
let script: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-command-'));
  script = join(dir, 'run-sandbox.ts');
  await writeFile(
    script,
    `import { runSandboxCommand } from ${JSON.stringify(commandModule)};\nawait runSandboxCommand(process.argv.slice(2));\n`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Run {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exit };
}

async function firstLine(r: Run, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!r.stdout().includes('\n')) {
    if (Date.now() > deadline || r.child.exitCode !== null) throw new Error(`no line; stderr: ${r.stderr()}`);
    await new Promise((res) => setTimeout(res, 20));
  }
  return r.stdout().split('\n')[0]!;
}

describe('sandbox command', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints its one line, serves with the given key and stops on ${signal}`, async () => {
      const r = run(['--port', '0', '--api-key', 'cli-key', '--time-scale', '0.01']);
      try {
        const line = await firstLine(r);
        const m = /^Sandbox listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
        expect(m, line).not.toBeNull();
        const url = m![1]!;
        const ok = await fetch(`${url}/api/v1/task/7c9e6679-7425-40de-944b-e07fc1f90ae7`, {
          headers: { 'x-api-key': 'cli-key' },
        });
        expect(ok.status).toBe(404);
        await ok.arrayBuffer();
        const denied = await fetch(`${url}/api/v1/task/7c9e6679-7425-40de-944b-e07fc1f90ae7`, {
          headers: { 'x-api-key': 'demo-key' },
        });
        expect(denied.status).toBe(401);
        await denied.arrayBuffer();
        r.child.kill(signal);
        expect(await r.exit).toBe(0);
        expect(r.stdout()).toBe(`${line}\n`);
      } finally {
        r.child.kill('SIGKILL');
      }
    });
  }

  it('exits with code 2 and a message on stderr for bad flags', async () => {
    const bad: Array<[string[], RegExp]> = [
      [['--port', 'abc'], /--port must be an integer/],
      [['--faults', '{nope'], /--faults must be a JSON object/],
      [['--profile', 'real'], /--profile must be 'spec' or 'hosted'/],
    ];
    await Promise.all(
      bad.map(async ([args, message]) => {
        const r = run(args);
        expect(await r.exit, args.join(' ')).toBe(2);
        expect(r.stderr()).toMatch(message);
        expect(r.stderr()).toContain('--profile spec|hosted');
        expect(r.stdout()).toBe('');
      }),
    );
  });
});

describe('parseSandboxArgs', () => {
  it('reads every flag, in both --flag value and --flag=value spellings', () => {
    expect(
      parseSandboxArgs([
        '--port=9000',
        '--api-key',
        'k',
        '--time-scale',
        '0.05',
        '--concurrency',
        '3',
        '--over-limit=refuse',
        '--output-ttl-ms',
        '1000',
        '--webhook-attempts',
        '2',
        '--webhook-backoff-ms',
        '10',
        '--faults',
        '{"serverErrorRate":0.1,"seed":7,"applyTo":"fetch"}',
      ]),
    ).toEqual({
      port: 9000,
      apiKey: 'k',
      timeScale: 0.05,
      concurrencyLimit: 3,
      overLimit: 'refuse',
      outputTtlMs: 1000,
      webhookAttempts: 2,
      webhookBackoffMs: 10,
      faults: { serverErrorRate: 0.1, seed: 7, applyTo: 'fetch' },
    });
    expect(parseSandboxArgs([])).toEqual({ port: 8787 });
  });

  it('reads --profile, --balance-micros and --upload-ttl-ms, and refuses bad values with a clear message', () => {
    expect(
      parseSandboxArgs(['--profile', 'hosted', '--balance-micros=2500', '--upload-ttl-ms', '60000']),
    ).toEqual({ port: 8787, profile: 'hosted', balanceMicros: 2500, uploadTtlMs: 60000 });
    expect(parseSandboxArgs(['--profile=spec']).profile).toBe('spec');
    expect(() => parseSandboxArgs(['--profile', 'real'])).toThrow(
      "--profile must be 'spec' or 'hosted', got 'real'",
    );
    expect(() => parseSandboxArgs(['--balance-micros', '1.5'])).toThrow(
      /--balance-micros must be an integer >= 0/,
    );
    expect(() => parseSandboxArgs(['--upload-ttl-ms', '-1'])).toThrow(/--upload-ttl-ms/);
    expect(
      parseSandboxArgs(['--faults', '{"planRefusedTaskTypes":["face-swap"],"uploadRefused":true}']).faults,
    ).toEqual({ planRefusedTaskTypes: ['face-swap'], uploadRefused: true });
    expect(() => parseSandboxArgs(['--faults', '{"planRefusedTaskTypes":["nope"]}'])).toThrow(/nope/);
  });

  it('refuses out-of-range values', () => {
    expect(() => parseSandboxArgs(['--concurrency', '0'])).toThrow(SandboxUsageError);
    expect(() => parseSandboxArgs(['--over-limit', 'queue'])).toThrow(/over-limit/);
    expect(() => parseSandboxArgs(['--faults', '{"serverErrorRate":2}'])).toThrow(/serverErrorRate/);
    expect(() => parseSandboxArgs(['--faults', '{"unknown":1}'])).toThrow(/unknown/);
    expect(() => parseSandboxArgs(['stray'])).toThrow(/stray/);
    expect(() => parseSandboxArgs(['--time-scale', '-1'])).toThrow(/--time-scale/);
    expect(() => parseSandboxArgs(['--bogus', '1'])).toThrow(/--bogus/);
    expect(() => parseSandboxArgs(['--api-key'])).toThrow(/--api-key needs a value/);
  });
});
