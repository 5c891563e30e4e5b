// @weft/conformance is published: what it ships may import only its declared dependencies and peers,
// never the repository's private build presets (@internal/*).
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);
const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** The bare specifiers imported by the sources that are built into dist/ (tests excluded). */
async function shippedImports(): Promise<Map<string, string[]>> {
  const files = (await readdir(new URL('src/', root))).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.test-d.ts'),
  );
  const imports = new Map<string, string[]>();
  for (const file of files) {
    const source = await readFile(new URL(`src/${file}`, root), 'utf8');
    const specifiers = [
      ...source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'/gm),
      ...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
    ].map((match) => match[1]!);
    for (const specifier of specifiers.filter((s) => !s.startsWith('.'))) {
      const name = specifier!.startsWith('@')
        ? specifier!.split('/').slice(0, 2).join('/')
        : specifier!.split('/')[0]!;
      imports.set(name, [...(imports.get(name) ?? []), file]);
    }
  }
  return imports;
}

describe('@weft/conformance package boundary', () => {
  it('ships no import of a private package, and declares every package it imports', async () => {
    const imports = await shippedImports();
    expect(imports.size).toBeGreaterThan(0);
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const undeclared = [...imports].filter(([name]) => !name.startsWith('node:') && !declared.has(name));
    expect(undeclared).toEqual([]);
    expect([...imports.keys()].filter((name) => name.startsWith('@internal/'))).toEqual([]);
    expect(
      Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((n) =>
        n.startsWith('@internal/'),
      ),
    ).toEqual([]);
  });

  it('leaves vitest to the user as a peer dependency', () => {
    expect(manifest.peerDependencies?.vitest).toBe('^5.1.1');
    expect(manifest.dependencies?.vitest).toBeUndefined();
  });
});
