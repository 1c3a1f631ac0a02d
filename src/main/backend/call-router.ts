/**
 * Runs the calls of the contract (STUDIO_CALLS): checks a call's name and its arguments with
 * its zod schema, runs its handler, and turns what it returns or throws into a StudioResult
 * (never a stack, never the key). A settings call runs alone: it waits for the calls running,
 * and calls that come meanwhile wait for it (it may reopen the library under them).
 */
import { STUDIO_CALLS, type StudioCallName, type StudioResult } from '../../shared/index.ts';
import { StudioCallError } from './call-errors.ts';
import type { CallHandlers } from './studio-calls.ts';

const SETTINGS_CALLS = new Set<string>([
  'settings.update',
  'settings.setApiKey',
  'settings.confirmKeyAddresses',
  'settings.clearApiKey',
]);

export class CallRouter {
  readonly #handlers: CallHandlers;
  readonly #fail: (err: unknown) => StudioResult<never>;
  readonly #inFlight = new Set<Promise<unknown>>();
  #exclusive: Promise<unknown> = Promise.resolve();
  #closed = false;

  /** `fail` turns an error into the failed result the window gets. */
  constructor(handlers: CallHandlers, fail: (err: unknown) => StudioResult<never>) {
    this.#handlers = handlers;
    this.#fail = fail;
  }

  async handle(name: string, rawArgs: unknown): Promise<StudioResult<unknown>> {
    if (this.#closed) return this.#fail(new StudioCallError('internal', 'the app is shutting down'));
    if (!Object.hasOwn(STUDIO_CALLS, name)) {
      return this.#fail(
        new StudioCallError('unknown-call', `there is no call named ${JSON.stringify(name).slice(0, 120)}`),
      );
    }
    const callName = name as StudioCallName;
    const parsed = STUDIO_CALLS[callName].args.safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const path =
        issue?.path.map(String).join('.') ||
        (issue?.code === 'unrecognized_keys' ? issue.keys.join(', ') : '');
      const field = path === '' ? 'args' : path;
      return this.#fail(
        new StudioCallError('invalid-input', `${field}: ${issue?.message ?? 'invalid'}`, field),
      );
    }
    const handler = this.#handlers[callName] as (args: unknown) => Promise<unknown>;
    const run = SETTINGS_CALLS.has(name)
      ? this.#runExclusive(() => handler(parsed.data))
      : this.#runShared(() => handler(parsed.data));
    try {
      return { ok: true, value: await run };
    } catch (err) {
      return this.#fail(err);
    }
  }

  /** Resolves once the calls running now have finished, however they end. */
  async callsSettled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight]);
  }

  /** Refuses calls from now on and waits for the ones running. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#exclusive.catch(() => undefined);
    await this.callsSettled();
  }

  #runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#exclusive.then(fn, fn);
    this.#exclusive = run.catch(() => undefined);
    return run;
  }

  /** Runs a call once no settings change is under way (a reopen waits for the calls running). */
  async #runShared<T>(fn: () => Promise<T>): Promise<T> {
    for (;;) {
      const gate = this.#exclusive;
      await gate;
      if (gate === this.#exclusive) break;
    }
    return this.#track(fn());
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#inFlight.add(p);
    void p.then(
      () => this.#inFlight.delete(p),
      () => this.#inFlight.delete(p),
    );
    return p;
  }
}
