/** Checks that an error shows the API key nowhere a user, a log or a crash report could see it. */
import { inspect } from 'node:util';
import { expect } from 'vitest';

/** Every text an error can be turned into: message, stack, JSON, inspect output, cause chain. */
export function textsOf(error: unknown): string[] {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof Error) {
      texts.push(current.message, current.stack ?? '', String(current));
    }
    texts.push(JSON.stringify(current) ?? '', inspect(current, { depth: 10, showHidden: true }));
    current = (current as { cause?: unknown }).cause;
  }
  return texts;
}

export function expectNoKeyLeak(errors: readonly unknown[], apiKey: string): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) {
    for (const text of textsOf(error)) expect(text).not.toContain(apiKey);
  }
}

/** Awaits a promise expected to fail, records the error for the leak check, and returns it. */
export async function failureOf(promise: Promise<unknown>, sink: unknown[]): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    sink.push(error);
    return error;
  }
  throw new Error('expected the call to fail, it succeeded');
}
