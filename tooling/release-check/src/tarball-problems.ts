// What can be wrong with a packed package, judged from its package.json and its files alone: the
// checks that do not need an install. Each problem is one line that names the package.
import { isBuiltin } from 'node:module';

/** The fields of a packed package.json these checks read. */
export interface PackedManifest {
  readonly name: string;
  readonly version: string;
  readonly exports?: unknown;
  readonly main?: string;
  readonly types?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

export interface PackedPackage {
  readonly manifest: PackedManifest;
  /** Paths inside the tarball, relative to its `package/` folder, e.g. `dist/index.js`. */
  readonly files: readonly string[];
  /** Text of the shipped `.js` and `.d.ts` files, by path. */
  readonly sources: ReadonlyMap<string, string>;
}

/** The workspace-only export condition: it points at TypeScript sources, which are not shipped. */
export const sourceCondition = '@weft/source';

const dependencyFields = [
  'dependencies',
  'devDependencies',
  'peerDependencies',
  'optionalDependencies',
] as const;

/** Every file an `exports` map can resolve to, without the workspace-only condition. */
export function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (exports === null || typeof exports !== 'object') return [];
  return Object.entries(exports).flatMap(([key, value]) =>
    key === sourceCondition ? [] : exportTargets(value),
  );
}

/** The packages a JS or declaration file imports (bare specifiers, reduced to package names). */
export function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s+['"]([^'"]+)['"]/gm),
    ...source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!);
  const names = specifiers
    .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('/') && !isBuiltin(specifier))
    .map((specifier) =>
      specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!,
    );
  return [...new Set(names)];
}

/** Files a published package may carry besides what `exports` reaches. */
const packageFiles = /^(package\.json|README(\.md)?|LICEN[CS]E(\.\w+)?|NOTICE(\.\w+)?|CHANGELOG\.md)$/i;

/**
 * Problems that make the tarball unusable or wrong for whoever installs it: workspace protocols left
 * in, export targets missing, sources or tests shipped, imports of undeclared packages.
 */
export function tarballProblems(pkg: PackedPackage): string[] {
  const { manifest, files } = pkg;
  const label = `${manifest.name}@${manifest.version}`;
  const problems: string[] = [];
  const shipped = new Set(files);

  for (const field of dependencyFields) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog|link|file):/.test(range))
        problems.push(`${label}: ${field}.${name} is "${range}" — not rewritten to a published version`);
    }
  }

  const targets = [
    ...exportTargets(manifest.exports),
    ...(manifest.main ? [manifest.main] : []),
    ...(manifest.types ? [manifest.types] : []),
  ].map((target) => target.replace(/^\.\//, ''));
  if (targets.length === 0) problems.push(`${label}: no exports, main or types — nothing to import`);
  for (const target of targets) {
    if (target.includes('*')) continue;
    if (!shipped.has(target)) problems.push(`${label}: exports name ${target}, which the tarball lacks`);
  }

  // npm packs a package's own LICENSE, never the repository's: each package carries a copy.
  if (!files.some((file) => /^LICEN[CS]E(\.\w+)?$/i.test(file)))
    problems.push(`${label}: no LICENSE (the licence its package.json names must ship with it)`);

  for (const file of files) {
    if (/\.test(-d)?\.|\.int\.test\./.test(file)) problems.push(`${label}: ships a test file, ${file}`);
    else if (!file.startsWith('dist/') && !packageFiles.test(file))
      problems.push(`${label}: ships ${file}, outside dist/ (sources run only inside the workspace)`);
  }

  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  for (const [file, source] of pkg.sources) {
    for (const name of importedPackages(source)) {
      if (!declared.has(name))
        problems.push(`${label}: ${file} imports ${name}, which is not a dependency or peer dependency`);
    }
  }
  return problems;
}

/** Worth knowing, but no reason to fail: what an npm page or a user would miss. */
export function tarballWarnings(pkg: PackedPackage): string[] {
  const label = `${pkg.manifest.name}@${pkg.manifest.version}`;
  const warnings: string[] = [];
  if (!pkg.files.some((file) => /^README(\.md)?$/i.test(file)))
    warnings.push(`${label}: no README (its npm page would be empty)`);
  if (!pkg.files.includes('CHANGELOG.md'))
    warnings.push(`${label}: no CHANGELOG.md (changeset version writes one; "files" must name it)`);
  return warnings;
}
