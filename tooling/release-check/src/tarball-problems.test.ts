import { describe, expect, it } from 'vitest';
import {
  exportTargets,
  importedPackages,
  type PackedPackage,
  tarballProblems,
  tarballWarnings,
} from './tarball-problems.ts';

/** A well-formed tarball of a small package, as pnpm pack writes it. */
function packed(
  overrides: Partial<PackedPackage['manifest']> = {},
  extra: Partial<PackedPackage> = {},
): PackedPackage {
  return {
    manifest: {
      name: '@weft/thing',
      version: '0.1.0',
      exports: {
        './package.json': './package.json',
        '.': {
          '@weft/source': './src/index.ts',
          types: './dist/index.d.ts',
          import: './dist/index.js',
          default: './dist/index.js',
        },
      },
      dependencies: { '@weft/spec': '^0.1.0', kuzu: '0.11.3' },
      peerDependencies: { vitest: '^5.1.1' },
      ...overrides,
    },
    files: [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/index.js.map',
    ],
    sources: new Map([
      [
        'dist/index.js',
        "import { a } from './a.js';\nimport kuzu from 'kuzu';\nimport { x } from 'node:fs';\n",
      ],
      ['dist/index.d.ts', "import type { Plan } from '@weft/spec';\nexport { describe } from 'vitest';\n"],
    ]),
    ...extra,
  };
}

describe('tarballProblems', () => {
  it('finds nothing wrong with a well-formed tarball', () => {
    expect(tarballProblems(packed())).toEqual([]);
    expect(tarballWarnings(packed())).toEqual([]);
  });

  it('reports workspace and catalog ranges that pnpm pack left in', () => {
    const problems = tarballProblems(
      packed({
        dependencies: { '@weft/spec': 'workspace:^', kuzu: '0.11.3' },
        devDependencies: { vitest: 'catalog:' },
      }),
    );
    expect(problems).toEqual([
      '@weft/thing@0.1.0: dependencies.@weft/spec is "workspace:^" — not rewritten to a published version',
      '@weft/thing@0.1.0: devDependencies.vitest is "catalog:" — not rewritten to a published version',
    ]);
  });

  it('reports an export target the tarball lacks, but not the workspace-only source condition', () => {
    const pkg = packed({}, { files: ['package.json', 'README.md', 'LICENSE', 'dist/index.js'] });
    expect(tarballProblems(pkg)).toEqual([
      '@weft/thing@0.1.0: exports name dist/index.d.ts, which the tarball lacks',
    ]);
  });

  it('reports shipped tests and files outside dist/', () => {
    const pkg = packed({}, { files: [...packed().files, 'dist/a.test.js', 'src/index.ts'] });
    expect(tarballProblems(pkg)).toEqual([
      '@weft/thing@0.1.0: ships a test file, dist/a.test.js',
      '@weft/thing@0.1.0: ships src/index.ts, outside dist/ (sources run only inside the workspace)',
    ]);
  });

  it('reports an import of a package that is neither a dependency nor a peer', () => {
    const sources = new Map([['dist/bench/bench.js', "import { openBundle } from '@weft/skb';\n"]]);
    expect(tarballProblems(packed({}, { sources }))).toEqual([
      '@weft/thing@0.1.0: dist/bench/bench.js imports @weft/skb, which is not a dependency or peer dependency',
    ]);
  });

  it('reports a tarball without its LICENSE', () => {
    const pkg = packed({}, { files: packed().files.filter((file) => file !== 'LICENSE') });
    expect(tarballProblems(pkg)).toEqual([
      '@weft/thing@0.1.0: no LICENSE (the licence its package.json names must ship with it)',
    ]);
  });

  it('warns when there is no README or CHANGELOG.md', () => {
    const pkg = packed({}, { files: ['package.json', 'LICENSE', 'dist/index.js', 'dist/index.d.ts'] });
    expect(tarballWarnings(pkg)).toEqual([
      '@weft/thing@0.1.0: no README (its npm page would be empty)',
      '@weft/thing@0.1.0: no CHANGELOG.md (changeset version writes one; "files" must name it)',
    ]);
  });
});

describe('importedPackages', () => {
  it('reduces bare specifiers to package names, skipping relative paths and Node built-ins', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from '@scope/pkg/sub';",
      "export * from 'lib/deep/path';",
      "import 'side-effect';",
      "const later = await import('lazy');",
      "import fs from 'fs';",
      " * import { inDoc } from 'not-code';",
    ].join('\n');
    expect(importedPackages(source)).toEqual(['@scope/pkg', 'lib', 'side-effect', 'lazy']);
  });
});

describe('exportTargets', () => {
  it('lists every target of nested conditions except @weft/source', () => {
    expect(
      exportTargets({
        '.': { '@weft/source': './src/index.ts', types: './dist/index.d.ts', default: './dist/index.js' },
        './test': './dist/test.js',
      }),
    ).toEqual(['./dist/index.d.ts', './dist/index.js', './dist/test.js']);
  });
});
