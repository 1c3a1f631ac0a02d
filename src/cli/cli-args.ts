/**
 * A small, strict argument reader for the CLI: `--name value`, `--name=value`, boolean flags,
 * positionals. Unknown options are errors, so a typo never silently changes what is sent.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  values: Map<string, string>;
  flags: Set<string>;
  positionals: string[];
}

export function parseArgs(
  argv: readonly string[],
  spec: { values?: readonly string[]; flags?: readonly string[] },
): ParsedArgs {
  const valueNames = new Set(spec.values ?? []);
  const flagNames = new Set(spec.flags ?? []);
  const out: ParsedArgs = { values: new Map(), flags: new Set(), positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (flagNames.has(name)) {
      if (eq > 0) throw new UsageError(`--${name} takes no value`);
      out.flags.add(name);
    } else if (valueNames.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      out.values.set(name, value);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}

export function numberOption(args: ParsedArgs, name: string): number | undefined {
  const raw = args.values.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`--${name} must be a number (got "${raw}")`);
  return n;
}
