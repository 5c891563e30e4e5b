// The root README's "Use it as a library": what a new user copies first must install and run as written.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

async function librarySection(): Promise<string> {
  const readme = await readFile(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Use it as a library');
  expect(start).toBeGreaterThanOrEqual(0);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('README, use it as a library', () => {
  it('installs every @weft package its snippet imports', async () => {
    const section = await librarySection();
    const install = /npm install (@weft\/[^\n]+)/.exec(section)?.[1]?.split(/\s+/) ?? [];
    const snippet = section.slice(section.indexOf('```ts'));
    const imported = [...snippet.matchAll(/from '(@weft\/[a-z0-9-]+)'/g)].map((m) => m[1]!);
    expect(imported).toContain('@weft/core');
    for (const name of imported) expect(install, name).toContain(name);
  });

  it('says the packages are not on the registry yet, and how to try its lines (a local registry, or the workspace)', async () => {
    const section = await librarySection();
    expect(section).toContain('Not on the npm registry yet');
    // tooling/release-check runs the section's lines against the registry it starts; --serve leaves it up.
    expect(section).toContain('tooling/release-check/src/release-check.ts --serve');
    expect(section).toContain('--registry <address>');
    expect(section).toContain('--conditions=@weft/source');
  });

  it('its snippet can run twice: the bundle and the store are built only when absent', async () => {
    const snippet = (await librarySection()).split('```ts')[1]!;
    // buildWordnetBundle refuses a folder that is not empty: an unguarded call fails the second run.
    for (const call of ['buildWordnetBundle(', 'buildStore(']) {
      const line = snippet.split('\n').findIndex((l) => l.includes(`await ${call}`));
      expect(line, call).toBeGreaterThanOrEqual(0);
      const guard = snippet
        .split('\n')
        .slice(Math.max(0, line - 1), line + 1)
        .join('\n');
      expect(guard, call).toMatch(/if \(!existsSync\(/);
    }
  });
});

describe('README, Node version', () => {
  it('states one Node version, the one package.json engines and the bootstrap require', async () => {
    const readme = await readFile(path.join(root, 'README.md'), 'utf8');
    const engines = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')).engines
      .node as string;
    const required = /^>=(\d+)$/.exec(engines)?.[1];
    expect(required).toBeDefined();
    const bootstrap = await readFile(path.join(root, 'tooling/bootstrap/bootstrap.sh'), 'utf8');
    expect(bootstrap).toContain(`-ge ${required} ]`);
    const stated = [...readme.matchAll(/Node (?:≥|>=) ?(\d+)/g)].map((m) => m[1]);
    expect(stated.length).toBeGreaterThan(0);
    expect(new Set(stated)).toEqual(new Set([required]));
  });
});
