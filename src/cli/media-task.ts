#!/usr/bin/env node
/** The `media-task` executable: runs the CLI and sets the exit code. */
import { exitCodeOf, main } from './main.ts';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`media-task: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = exitCodeOf(err);
  },
);
