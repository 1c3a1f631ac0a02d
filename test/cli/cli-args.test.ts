/**
 * The CLI's argument reader (node:util parseArgs underneath): the words it accepts, and the
 * CLI's own message for each it refuses, at the first wrong word.
 */
import { describe, expect, it } from 'vitest';
import { FLAG, numberValue, pickOptions, readArgs, UsageError, VALUE } from '../../src/cli/cli-args.ts';

const OPTIONS = { style: VALUE, seed: VALUE, wait: FLAG } as const;

describe('readArgs', () => {
  it('reads values given either way, flags and positionals, the last of a repeated option winning', () => {
    const args = readArgs(['a', '--style', 'x y', '--seed=-5', '--wait', 'b', '--style=z=1'], OPTIONS);
    expect(args.values).toEqual({ style: 'z=1', seed: '-5', wait: true });
    expect(args.positionals).toEqual(['a', 'b']);
  });

  it('takes the next word as a value even when it starts with dashes', () => {
    expect(readArgs(['--style', '--wait'], OPTIONS).values).toEqual({ style: '--wait' });
    expect(readArgs(['--seed', '-5'], OPTIONS).values).toEqual({ seed: '-5' });
  });

  it('keeps single-dash words and every word after -- as positionals, as typed', () => {
    expect(readArgs(['-h', '-abc', '-', '--', '--style', 'x'], OPTIONS)).toEqual({
      values: {},
      positionals: ['-h', '-abc', '-', '--style', 'x'],
    });
  });

  it.each([
    [['--styel', 'x'], 'unknown option --styel'],
    [['--styel=x'], 'unknown option --styel'],
    [['--style'], '--style needs a value'],
    [['--wait=yes'], '--wait takes no value'],
    [['--wait', '--nope', '--style'], 'unknown option --nope'],
  ])('refuses %j: %s', (argv, message) => {
    expect(() => readArgs(argv, OPTIONS)).toThrow(UsageError);
    expect(() => readArgs(argv, OPTIONS)).toThrow(message);
  });
});

describe('pickOptions', () => {
  it('picks the named options anywhere before --, each with its value, and keeps the rest in order', () => {
    const split = pickOptions(
      ['--library', 'L', 'create', 'audio', '--style', '--json', '--time-scale=2', '--', '--json'],
      { library: VALUE, 'time-scale': VALUE, json: FLAG },
    );
    expect(split.picked).toEqual(['--library', 'L', '--json', '--time-scale=2']);
    expect(split.others).toEqual(['create', 'audio', '--style', '--', '--json']);
  });
});

describe('numberValue', () => {
  it('reads a number, and names the option when the text is not one', () => {
    expect(numberValue('limit', undefined)).toBeUndefined();
    expect(numberValue('limit', '12')).toBe(12);
    expect(() => numberValue('limit', ' ')).toThrow('--limit must be a number (got " ")');
    expect(() => numberValue('limit', 'ten')).toThrow('--limit must be a number (got "ten")');
  });
});
