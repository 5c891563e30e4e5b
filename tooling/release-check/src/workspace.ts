// The workspace's packages as a release sees them: which are published (no `private`), and what the
// pending changesets (.changeset/*.md) ask of them.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface WorkspacePackage {
  readonly name: string;
  readonly version: string;
  readonly private: boolean;
  /** Absolute. */
  readonly directory: string;
}

/** The folders pnpm-workspace.yaml names: each subfolder of these, and examples/. */
const groups = ['packages', 'apps', 'devkit', 'tooling'] as const;

/** Every workspace package under `root`, sorted by name. */
export async function workspacePackages(root: string): Promise<WorkspacePackage[]> {
  const directories = [path.join(root, 'examples')];
  for (const group of groups) {
    for (const entry of await readdir(path.join(root, group)))
      directories.push(path.join(root, group, entry));
  }
  const found: WorkspacePackage[] = [];
  for (const directory of directories) {
    const file = path.join(directory, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(await readFile(file, 'utf8')) as {
      name: string;
      version?: string;
      private?: boolean;
    };
    found.push({
      name: manifest.name,
      version: manifest.version ?? '0.0.0',
      private: manifest.private === true,
      directory,
    });
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** The packages and bump types a changeset's front matter names, in its order. */
export function changesetReleases(text: string): { name: string; bump: string }[] {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text.trimStart());
  if (!frontMatter) return [];
  return frontMatter[1]!
    .split(/\r?\n/)
    .map((line) => /^\s*["']?([^"':]+)["']?\s*:\s*(\w+)\s*$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ name: match[1]!.trim(), bump: match[2]! }));
}

/**
 * What would stop `changeset version`: a changeset that names a package the workspace lacks, or a
 * private one (apps, devkit/, tooling/ are never versioned: changesets refuses a changeset that mixes
 * them with published packages). One line per problem, naming the file.
 */
export async function changesetProblems(root: string): Promise<string[]> {
  const packages = new Map((await workspacePackages(root)).map((pkg) => [pkg.name, pkg]));
  const folder = path.join(root, '.changeset');
  const problems: string[] = [];
  for (const file of (await readdir(folder)).filter((f) => f.endsWith('.md') && f !== 'README.md').sort()) {
    for (const { name, bump } of changesetReleases(await readFile(path.join(folder, file), 'utf8'))) {
      const pkg = packages.get(name);
      if (!pkg) problems.push(`.changeset/${file}: names ${name}, which is no workspace package`);
      else if (pkg.private)
        problems.push(
          `.changeset/${file}: names ${name} (${bump}), which is private and never versioned: leave it out`,
        );
    }
  }
  return problems;
}
