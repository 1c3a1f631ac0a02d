/**
 * Which part of src/ may import what, checked on every import of every source file: static
 * `import … from` and `import '…'`, `export … from`, dynamic `import('…')`, `require('…')`,
 * `import x = require('…')` and type-level `import('…')`. The files are parsed (rolldown's
 * TypeScript parser, the one the build uses), so an import in a comment or a string does not
 * count and a multi-line import does.
 *
 * - `electron` only in src/main/index.ts, src/main/platform/ and src/preload/;
 * - src/shared/ (loaded by the window too): no Node builtins, no electron, no React, and of src/
 *   only src/shared/ itself;
 * - src/renderer/ (the window): no Node builtins, no electron;
 * - src/core/ (the headless core the window and the CLI both run) imports neither the Electron
 *   shell (src/main/) nor src/sandbox/ nor src/renderer/, and no electron (above);
 * - src/main/ never imports src/sandbox/, except the one file that starts the built-in sandbox;
 * - src/sandbox/ imports neither src/main/ nor src/core/; src/image-codec/ imports none of
 *   src/main/, src/core/ and src/sandbox/ (they import it);
 * - src/cli/ may import src/core/, src/main/ and src/sandbox/.
 *
 * And no file of src/ comes back to itself through its imports, type-only ones included: a
 * shared type lives in a file both sides import (an import circle is found as a group of files
 * that reach each other).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseSync, Visitor } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** The one file of src/main that may import src/sandbox: it starts the app's built-in sandbox. */
const BUILT_IN_SANDBOX_STARTER = 'src/main/backend/built-in-sandbox.ts';

interface SourceImport {
  /** The importing file, relative to the repository, with forward slashes. */
  file: string;
  /** The specifier as written; `<…>` when it is not a plain string (checked as unreadable). */
  specifier: string;
  kind: 'import' | 'export from' | 'import()' | 'require()' | 'import =' | 'type import()';
}

/** The text of a string literal (or a template literal without substitutions), else null. */
function literalText(node: unknown): string | null {
  const n = node as {
    type?: string;
    value?: unknown;
    quasis?: { value: { cooked: string | null } }[];
  } | null;
  if (n?.type === 'Literal' && typeof n.value === 'string') return n.value;
  if (n?.type === 'TemplateLiteral' && n.quasis?.length === 1) return n.quasis[0]?.value.cooked ?? null;
  return null;
}

/** Every import of one source file. */
function importsOf(file: string, source: string): SourceImport[] {
  const parsed = parseSync(file, source, { lang: file.endsWith('.tsx') ? 'tsx' : 'ts' });
  if (parsed.errors.length) throw new Error(`${file} does not parse: ${parsed.errors[0]?.message}`);
  const found: SourceImport[] = [];
  const add = (kind: SourceImport['kind'], node: unknown) => {
    const text = literalText(node);
    found.push({ file, kind, specifier: text ?? `<${(node as { type?: string } | null)?.type ?? 'none'}>` });
  };
  new Visitor({
    ImportDeclaration: (node) => add('import', node.source),
    ExportNamedDeclaration: (node) => {
      if (node.source) add('export from', node.source);
    },
    ExportAllDeclaration: (node) => add('export from', node.source),
    ImportExpression: (node) => add('import()', node.source),
    CallExpression: (node) => {
      if (node.callee.type === 'Identifier' && node.callee.name === 'require')
        add('require()', node.arguments[0]);
    },
    TSExternalModuleReference: (node) => add('import =', node.expression),
    TSImportType: (node) => add('type import()', node.source),
  }).visit(parsed.program);
  return found;
}

/** Where an import leads: a repository path for a relative one, else the package or builtin name. */
function targetOf(imp: SourceImport): { path: string | null; bare: string | null } {
  if (imp.specifier.startsWith('.')) {
    const path = relative(ROOT, resolve(ROOT, dirname(imp.file), imp.specifier))
      .split(sep)
      .join('/');
    return { path, bare: null };
  }
  return { path: null, bare: imp.specifier };
}

const under = (path: string, folder: string) => path.startsWith(`${folder}/`);
const isNodeBuiltin = (bare: string) => bare.startsWith('node:') || isBuiltin(bare);
const isPackage = (bare: string, name: string) => bare === name || bare.startsWith(`${name}/`);

/** What is wrong with one import, or null. */
function boundaryProblem(imp: SourceImport): string | null {
  const { file } = imp;
  if (imp.specifier.startsWith('<')) return 'an import whose module is not a plain string cannot be checked';
  const { path, bare } = targetOf(imp);
  if (bare !== null) {
    if (isPackage(bare, 'electron')) {
      const allowed =
        file === 'src/main/index.ts' || under(file, 'src/main/platform') || under(file, 'src/preload');
      if (!allowed)
        return 'electron is imported only by src/main/index.ts, src/main/platform/ and src/preload/';
    }
    if (under(file, 'src/shared')) {
      if (isNodeBuiltin(bare)) return 'src/shared/ runs in the window too: no Node builtins';
      if (isPackage(bare, 'react') || isPackage(bare, 'react-dom')) return 'src/shared/ does not use React';
    }
    if (under(file, 'src/renderer') && isNodeBuiltin(bare))
      return 'src/renderer/ runs in the window: no Node builtins';
    return null;
  }
  if (path === null) return null;
  if (under(file, 'src/shared') && !under(path, 'src/shared')) return 'src/shared/ imports only src/shared/';
  if (under(file, 'src/core')) {
    for (const folder of ['src/main', 'src/sandbox', 'src/renderer']) {
      if (under(path, folder)) return `src/core/ (the headless core) never imports ${folder}/`;
    }
  }
  if (under(file, 'src/main') && under(path, 'src/sandbox') && file !== BUILT_IN_SANDBOX_STARTER) {
    return `src/main/ imports src/sandbox/ only in ${BUILT_IN_SANDBOX_STARTER}, which starts the built-in sandbox`;
  }
  if (under(file, 'src/sandbox') && (under(path, 'src/main') || under(path, 'src/core')))
    return 'src/sandbox/ imports neither src/main/ nor src/core/';
  if (
    under(file, 'src/image-codec') &&
    (under(path, 'src/main') || under(path, 'src/core') || under(path, 'src/sandbox'))
  ) {
    return 'src/image-codec/ imports none of src/main/, src/core/ and src/sandbox/ (they import it)';
  }
  return null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function violationsIn(files: readonly string[], read: (file: string) => string): string[] {
  return files.flatMap((file) =>
    importsOf(file, read(file)).flatMap((imp) => {
      const problem = boundaryProblem(imp);
      return problem ? [`${file}: ${imp.kind} '${imp.specifier}': ${problem}`] : [];
    }),
  );
}

/** The file a relative import names: as written, or with `.ts`, `.tsx` or `/index.ts` added. */
function resolvedFile(path: string, known: ReadonlySet<string>): string | null {
  for (const candidate of [path, `${path}.ts`, `${path}.tsx`, `${path}/index.ts`]) {
    if (known.has(candidate)) return candidate;
  }
  return null;
}

/** The groups of files that import each other round in a circle (Tarjan's strongly connected parts). */
function importCircles(files: readonly string[], read: (file: string) => string): string[][] {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file, read(file)).flatMap((imp) => {
      const { path } = targetOf(imp);
      const target = path === null ? null : resolvedFile(path, known);
      return target ? [target] : [];
    });
    edges.set(file, [...new Set(targets)]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, index.get(next) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return circles;
}

describe('import boundaries of src/', () => {
  const files = sourceFiles('src');

  it('finds the source files and their imports', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(BUILT_IN_SANDBOX_STARTER);
    const imports = files.flatMap((file) => importsOf(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(imports.some((i) => i.file === 'src/main/index.ts' && i.specifier === 'electron')).toBe(true);
    expect(imports.some((i) => i.kind === 'import()' && i.specifier === 'sharp')).toBe(true);
  });

  it('every import of every file keeps to the boundaries', () => {
    expect(violationsIn(files, (file) => readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('no file imports itself round a circle, type-only imports included', () => {
    expect(importCircles(files, (file) => readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it('finds a circle of type-only imports, through an index file', () => {
    const planted: Record<string, string> = {
      'src/core/a.ts': "import type { B } from './b/index.ts';\nexport interface A { b: B }",
      'src/core/b/index.ts': "export type { B } from './b.ts';",
      'src/core/b/b.ts': "import type { A } from '../a.ts';\nexport interface B { a: A }",
      'src/core/c.ts': "import type { A } from './a.ts';\nexport type C = A;",
    };
    expect(importCircles(Object.keys(planted), (file) => planted[file] as string)).toEqual([
      ['src/core/a.ts', 'src/core/b/b.ts', 'src/core/b/index.ts'],
    ]);
  });

  it('names the file and the import of each kind of violation', () => {
    const planted: Record<string, string> = {
      'src/shared/planted.ts': "import { readFileSync } from 'node:fs';\nexport const x = require('path');",
      'src/shared/planted-react.ts': "export { useState } from 'react';",
      'src/renderer/src/planted.tsx':
        "const p = <p>Don't {String(await import('fs'))}</p>;\nexport default p;",
      'src/main/backend/planted.ts':
        "// import { startSandbox } from '../../sandbox/index.ts';\nimport {\n  startSandbox,\n} from '../../sandbox/index.ts';\nimport { app } from 'electron';",
      'src/core/engine/planted.ts':
        "import { createStudioBackend } from '../../main/backend/index.ts';\nimport '../../sandbox/index.ts';\nexport type { Api } from '../../renderer/src/api.ts';\nimport { app } from 'electron';",
      'src/sandbox/planted.ts':
        "type T = typeof import('../core/engine/index.ts');\nexport * from '../main/backend/index.ts';",
      'src/image-codec/planted.ts':
        "import '../sandbox/index.ts';\nconst name = '../main/index.ts';\nexport const m = await import(name);",
      'src/cli/planted.ts':
        "import '../core/engine/index.ts';\nimport '../main/backend/index.ts';\nimport '../sandbox/index.ts';",
    };
    expect(violationsIn(Object.keys(planted), (file) => planted[file] as string)).toEqual([
      "src/shared/planted.ts: import 'node:fs': src/shared/ runs in the window too: no Node builtins",
      "src/shared/planted.ts: require() 'path': src/shared/ runs in the window too: no Node builtins",
      "src/shared/planted-react.ts: export from 'react': src/shared/ does not use React",
      "src/renderer/src/planted.tsx: import() 'fs': src/renderer/ runs in the window: no Node builtins",
      `src/main/backend/planted.ts: import '../../sandbox/index.ts': src/main/ imports src/sandbox/ only in ${BUILT_IN_SANDBOX_STARTER}, which starts the built-in sandbox`,
      "src/main/backend/planted.ts: import 'electron': electron is imported only by src/main/index.ts, src/main/platform/ and src/preload/",
      "src/core/engine/planted.ts: import '../../main/backend/index.ts': src/core/ (the headless core) never imports src/main/",
      "src/core/engine/planted.ts: import '../../sandbox/index.ts': src/core/ (the headless core) never imports src/sandbox/",
      "src/core/engine/planted.ts: export from '../../renderer/src/api.ts': src/core/ (the headless core) never imports src/renderer/",
      "src/core/engine/planted.ts: import 'electron': electron is imported only by src/main/index.ts, src/main/platform/ and src/preload/",
      "src/sandbox/planted.ts: type import() '../core/engine/index.ts': src/sandbox/ imports neither src/main/ nor src/core/",
      "src/sandbox/planted.ts: export from '../main/backend/index.ts': src/sandbox/ imports neither src/main/ nor src/core/",
      "src/image-codec/planted.ts: import '../sandbox/index.ts': src/image-codec/ imports none of src/main/, src/core/ and src/sandbox/ (they import it)",
      "src/image-codec/planted.ts: import() '<Identifier>': an import whose module is not a plain string cannot be checked",
    ]);
  });
});
