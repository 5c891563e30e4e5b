import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { changesetProblems, changesetReleases, workspacePackages } from './workspace.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('changesetReleases', () => {
  it('reads the packages and bumps of the front matter', () => {
    const text =
      '---\n"@weft/oracle": minor\n\'@weft/cli\': patch\nkuzu-thing: major\n---\n\nSome text: with a colon.\n';
    expect(changesetReleases(text)).toEqual([
      { name: '@weft/oracle', bump: 'minor' },
      { name: '@weft/cli', bump: 'patch' },
      { name: 'kuzu-thing', bump: 'major' },
    ]);
  });

  it('finds nothing in a file without front matter', () => {
    expect(changesetReleases('# Changesets\n\nHello\n')).toEqual([]);
  });
});

describe('changesetProblems', () => {
  const scratch = mkdtemp(path.join(os.tmpdir(), 'weft-changesets-'));
  afterAll(async () => rm(await scratch, { recursive: true, force: true }));

  it('names a changeset that mixes a private package in, or names one the workspace lacks', async () => {
    const dir = await scratch;
    for (const [folder, manifest] of [
      ['packages/oracle', { name: '@weft/oracle', version: '0.1.0' }],
      ['apps/cli', { name: '@weft/cli', version: '0.0.0', private: true }],
      ['examples', { name: '@weft/examples', private: true }],
    ] as const) {
      await mkdir(path.join(dir, folder), { recursive: true });
      await writeFile(path.join(dir, folder, 'package.json'), JSON.stringify(manifest));
    }
    for (const group of ['devkit', 'tooling', '.changeset'])
      await mkdir(path.join(dir, group), { recursive: true });
    await writeFile(path.join(dir, '.changeset/README.md'), '# Changesets\n');
    await writeFile(path.join(dir, '.changeset/good.md'), '---\n"@weft/oracle": minor\n---\n\nFine.\n');
    await writeFile(
      path.join(dir, '.changeset/mixed.md'),
      '---\n"@weft/oracle": minor\n"@weft/cli": patch\n"@weft/gone": patch\n---\n\nMixed.\n',
    );
    expect(await changesetProblems(dir)).toEqual([
      '.changeset/mixed.md: names @weft/cli (patch), which is private and never versioned: leave it out',
      '.changeset/mixed.md: names @weft/gone, which is no workspace package',
    ]);
  });

  it('finds none in the pending changesets of this repository (changeset version would refuse them)', async () => {
    expect(await changesetProblems(root)).toEqual([]);
  });
});

describe('workspacePackages', () => {
  it('tells the published packages from the private ones', async () => {
    const packages = await workspacePackages(root);
    const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));
    expect(byName.get('@weft/core')?.private).toBe(false);
    expect(byName.get('@weft/cli')?.private).toBe(true);
    expect(byName.get('@internal/release-check')?.private).toBe(true);
    expect(packages.filter((pkg) => pkg.name.startsWith('@weft-dev/') && !pkg.private)).toEqual([]);
  });

  it('gives every published package the repository LICENSE and a "files" that names CHANGELOG.md', async () => {
    const license = await readFile(path.join(root, 'LICENSE'), 'utf8');
    const problems: string[] = [];
    for (const pkg of await workspacePackages(root)) {
      if (pkg.private) continue;
      const own = path.join(pkg.directory, 'LICENSE');
      if (!existsSync(own) || (await readFile(own, 'utf8')) !== license)
        problems.push(`${pkg.name}: LICENSE missing or not the repository's`);
      const manifest = JSON.parse(await readFile(path.join(pkg.directory, 'package.json'), 'utf8')) as {
        files?: string[];
      };
      if (!manifest.files?.includes('CHANGELOG.md')) problems.push(`${pkg.name}: "files" lacks CHANGELOG.md`);
    }
    expect(problems).toEqual([]);
  });

  it("declares every @weft package a published package's code imports (the published check finds it only after a build)", async () => {
    const problems: string[] = [];
    for (const pkg of await workspacePackages(root)) {
      if (pkg.private) continue;
      const manifest = JSON.parse(await readFile(path.join(pkg.directory, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        peerDependencies?: Record<string, string>;
      };
      const declared = new Set([
        pkg.name,
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
      ]);
      const files = (await readdir(path.join(pkg.directory, 'src'), { recursive: true })).filter(
        (file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !/(^|\/)(bench|testing)\//.test(file),
      );
      for (const file of files) {
        const text = await readFile(path.join(pkg.directory, 'src', file), 'utf8');
        for (const [, name] of text.matchAll(/from '(@weft\/[a-z0-9-]+)/g))
          if (!declared.has(name!))
            problems.push(`${pkg.name}: src/${file} imports ${name}, not a dependency`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });
});
