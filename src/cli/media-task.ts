#!/usr/bin/env node
/** The `media-task` executable: runs the CLI and sets the exit code. */
import { exitCodeOf, main, messageOf } from './main.ts';

const argv = process.argv.slice(2);
// with --json, scripts get failures as JSON too: {"error": {"message", "exitCode"}} on stderr
const json = argv.includes('--json');

main(argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const exitCode = exitCodeOf(err);
    const message = messageOf(err);
    process.stderr.write(
      json ? `${JSON.stringify({ error: { message, exitCode } })}\n` : `media-task: ${message}\n`,
    );
    process.exitCode = exitCode;
  },
);
