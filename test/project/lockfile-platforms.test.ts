/**
 * The lockfile serves every platform the app is built and developed on: Windows, macOS and
 * Linux on x64 and arm64. A dependency that ships its native code as optional platform packages
 * (Biome, sharp, rolldown, …) must have each of them in package-lock.json: a package missing
 * there is not installed on that platform, so `npm run lint` or the app would fail on it. (The
 * registry reachable on the build machines lacks some platform builds: pin versions that exist
 * for every platform.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  os?: string[];
  cpu?: string[];
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(join(import.meta.dirname, '../../package-lock.json'), 'utf8')) as {
  packages: Record<string, LockEntry>;
};

const TARGETS = ['win32', 'darwin', 'linux'].flatMap((os) => ['x64', 'arm64'].map((cpu) => ({ os, cpu })));

/** The lock entry an optional dependency of `owner` resolves to (nested first, then top level). */
function resolved(owner: string, name: string): LockEntry | undefined {
  return lock.packages[`${owner}/node_modules/${name}`] ?? lock.packages[`node_modules/${name}`];
}

function runsOn(entry: LockEntry, target: { os: string; cpu: string }): boolean {
  const allows = (list: string[] | undefined, value: string) =>
    !list ||
    list.some((v) => v === value) ||
    (list.every((v) => v.startsWith('!')) && !list.includes(`!${value}`));
  return allows(entry.os, target.os) && allows(entry.cpu, target.cpu);
}

describe('package-lock.json', () => {
  it('holds every optional platform package the dependencies list', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        if (!resolved(path, name)) missing.push(`${path.replace(/^.*node_modules\//, '')} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(['@biomejs/biome', 'sharp', 'rolldown'])(
    'has a build of %s for each of Windows, macOS and Linux on x64 and arm64',
    (name) => {
      const owner = `node_modules/${name}`;
      const entry = lock.packages[owner];
      expect(entry, `${name} is in the lockfile`).toBeDefined();
      const platformBuilds = Object.keys(entry?.optionalDependencies ?? {})
        .map((dep) => resolved(owner, dep))
        .filter((e): e is LockEntry => e !== undefined && (e.os !== undefined || e.cpu !== undefined));
      for (const target of TARGETS) {
        const builds = platformBuilds.filter((e) => runsOn(e, target));
        expect(builds.length, `${name} for ${target.os}-${target.cpu}`).toBeGreaterThan(0);
      }
    },
  );
});
