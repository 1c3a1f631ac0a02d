#!/usr/bin/env node
/** The `media-task` executable: runs the CLI and sets the exit code. */
import { exitCodeOf, main, messageOf } from './main.ts';
import { printErr, terminalJson } from './terminal-output.ts';

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
    printErr(json ? `${terminalJson({ error: { message, exitCode } })}\n` : `media-task: ${message}\n`);
    process.exitCode = exitCode;
  },
);
