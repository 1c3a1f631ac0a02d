/**
 * A child process driven line by line: commands go to its stdin, answers are read from its
 * stdout one line at a time. A child that exits fails every wait with its stderr.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface LineChild {
  process: ChildProcessWithoutNullStreams;
  /** The next line of stdout; rejects after `timeoutMs` or when the child exits first. */
  nextLine(timeoutMs?: number): Promise<string>;
  send(line: string): void;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

interface Waiter {
  resolve(line: string): void;
  reject(err: Error): void;
}

export function startLineChild(script: string, args: readonly string[]): LineChild {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Waiter[] = [];
  let stderr = '';
  let ended: string | null = null;
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter.resolve(line);
    else lines.push(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => {
      ended = `child ${child.pid} exited (code ${code}, signal ${signal}): ${stderr.slice(-3000)}`;
      for (const waiter of waiters.splice(0)) waiter.reject(new Error(ended));
      resolve({ code, signal });
    });
  });
  child.stdin.on('error', () => {
    // the child is gone; `exited` tells how
  });
  return {
    process: child,
    exited,
    stderr: () => stderr,
    send: (line) => {
      if (ended === null) child.stdin.write(`${line}\n`);
    },
    nextLine: (timeoutMs = 10_000) => {
      const ready = lines.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      if (ended !== null) return Promise.reject(new Error(ended));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no line from child ${child.pid} in ${timeoutMs} ms: ${stderr.slice(-3000)}`));
        }, timeoutMs);
        const waiter: Waiter = {
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
          reject: (err) => {
            clearTimeout(timer);
            reject(err);
          },
        };
        waiters.push(waiter);
      });
    },
  };
}
