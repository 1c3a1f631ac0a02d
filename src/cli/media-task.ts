#!/usr/bin/env node
/** The `media-task` executable: runs the CLI and sets the exit code. */
import { exitCodeOf, main, messageOf } from './main.ts';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`media-task: ${messageOf(err)}\n`);
    process.exitCode = exitCodeOf(err);
  },
);
