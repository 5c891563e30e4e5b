/**
 * Lists the names each package under packages/ exports from its entry points (src/index.ts and the
 * other `exports` of its package.json) that nothing outside the package imports: no other package,
 * app, devkit or tooling module, no example (examples/) and no code block of a Markdown file.
 * Names a Markdown file mentions in backticks are marked `documented`.
 *
 *   ./dev pnpm -s --filter @weft-dev/results unused-exports [--json] [--package <name>] [--root <checkout>]
 *
 * Prints, per package, `unused / exported` and the unused names, then the totals.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const rootArgument = process.argv.indexOf('--root');
const root =
  rootArgument > 0
    ? path.resolve(process.argv[rootArgument + 1]!)
    : path.resolve(import.meta.dirname, '../../..');
const sourceRoots = ['packages', 'apps', 'devkit', 'tooling', 'examples'];
const skipDirectories = new Set(['node_modules', 'dist', '.turbo', '.cache', 'coverage']);

interface EntryPoint {
  readonly packageName: string;
  /** `@weft/eval` or `@weft/eval/format-percent`. */
  readonly specifier: string;
  readonly file: string;
}

interface PackageInfo {
  readonly name: string;
  readonly directory: string;
  readonly entries: readonly EntryPoint[];
}

function walk(directory: string, keep: (file: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(directory)) return out;
  for (const name of readdirSync(directory)) {
    if (skipDirectories.has(name) || name.startsWith('.')) continue;
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) walk(full, keep, out);
    else if (keep(full)) out.push(full);
  }
  return out;
}

function packages(): PackageInfo[] {
  const out: PackageInfo[] = [];
  for (const name of readdirSync(path.join(root, 'packages')).sort()) {
    const directory = path.join(root, 'packages', name);
    const manifestFile = path.join(directory, 'package.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      name: string;
      exports?: Record<string, string | Record<string, string>>;
    };
    const entries: EntryPoint[] = [];
    for (const [subpath, target] of Object.entries(manifest.exports ?? { '.': './src/index.ts' })) {
      if (subpath === './package.json') continue;
      const file = typeof target === 'string' ? target : (target['@weft/source'] ?? target.default);
      if (!file?.endsWith('.ts')) continue;
      entries.push({
        packageName: manifest.name,
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        file: path.join(directory, file),
      });
    }
    out.push({ name: manifest.name, directory, entries });
  }
  return out;
}

/**
 * The source with its comments blanked (strings, templates and regular expressions kept), so that
 * the statements below can be read with regular expressions. TypeScript 7 has no JavaScript API to
 * parse with, and the repository's imports are in Biome's one format.
 */
function withoutComments(text: string): string {
  let out = '';
  let i = 0;
  let last = ''; // the last significant character of code, to tell a regular expression from a division
  const templates: number[] = []; // brace depth inside each open template's `${`
  let depth = 0;
  const regexAfter = '(,=:[!&|?{};+-*%<>~^';
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      last = c;
      continue;
    }
    if (c === '`' || (c === '}' && templates.length > 0 && depth === templates[templates.length - 1])) {
      if (c === '}') templates.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{'))
        j += text[j] === '\\' ? 2 : 1;
      if (text[j] === '$') {
        templates.push(depth);
        out += text.slice(i, j + 2);
        i = j + 2;
      } else {
        out += text.slice(i, j + 1);
        i = j + 1;
      }
      last = '`';
      continue;
    }
    if (c === '/' && (last === '' || regexAfter.includes(last))) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n' && (inClass || text[j] !== '/')) {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        j++;
      }
      out += text.slice(i, j + 1);
      i = j + 1;
      last = ')';
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') depth--;
    if (!/\s/.test(c)) last = /[\w$]/.test(c) ? 'a' : c;
    out += c;
    i++;
  }
  return out;
}

/** `a`, `type B`, `c as d` → the names on one side of `as` (`exported`: the right one). */
function specifiers(list: string, side: 'local' | 'exported'): string[] {
  return list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((part) => {
      const [left, right] = part.split(/\s+as\s+/);
      return (side === 'exported' ? (right ?? left) : left)!.trim();
    });
}

/** The names a module exports (following `export *` into relative modules). */
function exportedNames(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file) || !existsSync(file)) return [];
  seen.add(file);
  const code = withoutComments(readFileSync(file, 'utf8'));
  const names: string[] = [];
  for (const m of code.matchAll(/\bexport\s+(?:type\s+)?\{([^}]*)\}/g))
    names.push(...specifiers(m[1]!, 'exported'));
  for (const m of code.matchAll(/\bexport\s+\*\s+as\s+([\w$]+)/g)) names.push(m[1]!);
  for (const m of code.matchAll(/\bexport\s+\*\s+from\s+['"]([^'"]+)['"]/g))
    if (m[1]!.startsWith('.')) names.push(...exportedNames(path.resolve(path.dirname(file), m[1]!), seen));
  for (const m of code.matchAll(
    /\bexport\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|interface|type|const|let|var|enum)\s+([\w$]+)/g,
  ))
    names.push(m[1]!);
  return [...new Set(names)];
}

/** Per module specifier, the names a source imports from it (`*` for a whole-module use). */
function importsOf(text: string, into: Map<string, Set<string>>): void {
  const code = withoutComments(text);
  const add = (specifier: string, name: string) =>
    (into.get(specifier) ?? into.set(specifier, new Set()).get(specifier)!).add(name);
  const from = `\\s*from\\s*['"]([^'"]+)['"]`;
  for (const m of code.matchAll(
    new RegExp(`\\bimport\\s+(?:type\\s+)?(?:([\\w$]+)\\s*,?\\s*)?\\{([^}]*)\\}${from}`, 'g'),
  )) {
    if (m[1]) add(m[3]!, 'default');
    for (const name of specifiers(m[2]!, 'local')) add(m[3]!, name);
  }
  for (const m of code.matchAll(new RegExp(`\\bimport\\s+(?:type\\s+)?([\\w$]+)${from}`, 'g')))
    add(m[2]!, 'default');
  for (const m of code.matchAll(new RegExp(`\\bexport\\s+(?:type\\s+)?\\{([^}]*)\\}${from}`, 'g')))
    for (const name of specifiers(m[1]!, 'local')) add(m[2]!, name);
  for (const m of code.matchAll(new RegExp(`\\bexport\\s+\\*(?:\\s+as\\s+[\\w$]+)?${from}`, 'g')))
    add(m[1]!, '*');
  const namespaces: [string, string][] = [];
  for (const m of code.matchAll(new RegExp(`\\bimport\\s+(?:type\\s+)?\\*\\s+as\\s+([\\w$]+)${from}`, 'g')))
    namespaces.push([m[1]!, m[2]!]);
  // Dynamic imports and import types: `import('x').Name`, `const { a, b } = await import('x')`,
  // `const m = await import('x')` (then `m.name`); anything else uses the module whole.
  for (const m of code.matchAll(
    /(?:\b(const|let|var)\s+(\{[^}]*\}|[\w$]+)\s*=\s*(?:await\s+)?)?\bimport\(\s*['"]([^'"]+)['"]\s*\)(\.[\w$]+)?/g,
  )) {
    const [, declared, binding, specifier, member] = m;
    if (member) add(specifier!, member.slice(1));
    else if (declared && binding!.startsWith('{'))
      for (const part of binding!.slice(1, -1).split(',')) {
        const name = part.split(':')[0]!.trim();
        if (name && !name.startsWith('...')) add(specifier!, name);
        else if (name.startsWith('...')) add(specifier!, '*');
      }
    else if (declared) namespaces.push([binding!, specifier!]);
    else add(specifier!, '*');
  }
  for (const [name, specifier] of namespaces) {
    let members = 0;
    for (const m of code.matchAll(new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}\\.([\\w$]+)`, 'g'))) {
      add(specifier, m[1]!);
      members++;
    }
    // `typeof ns` or passing the namespace on: every name may be used.
    if (
      new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$.])`).test(
        code.replace(new RegExp(`\\*\\s+as\\s+${name}`), ''),
      ) ||
      members === 0
    )
      add(specifier, '*');
  }
}

/** The code blocks of a Markdown file. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/```(?:ts|typescript|js|javascript|mjs|tsx)\s*\n([\s\S]*?)```/g)].map(
    (m) => m[1]!,
  );
}

const json = process.argv.includes('--json');
const only = process.argv.includes('--package')
  ? process.argv[process.argv.indexOf('--package') + 1]
  : undefined;

const all = packages();
const sourceFiles = sourceRoots.flatMap((r) =>
  walk(path.join(root, r), (f) => /\.(ts|tsx|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts')),
);
const markdownFiles = [
  ...walk(root, (f) => f.endsWith('.md') && !f.endsWith('CHANGELOG.md')).filter(
    (f) => !f.includes(`${path.sep}.changeset${path.sep}`),
  ),
];

/** Per file outside the package: what it imports. Keyed by the owning package directory. */
const ownerOf = (file: string) => all.find((p) => file.startsWith(p.directory + path.sep))?.name;
const importsByOwner = new Map<string | undefined, Map<string, Set<string>>>();
const importsFor = (owner: string | undefined) =>
  importsByOwner.get(owner) ?? importsByOwner.set(owner, new Map()).get(owner)!;
for (const file of sourceFiles) importsOf(readFileSync(file, 'utf8'), importsFor(ownerOf(file)));
const documentedNames = new Set<string>();
for (const file of markdownFiles) {
  const text = readFileSync(file, 'utf8');
  for (const block of codeBlocks(text)) importsOf(block, importsFor(`md:${file}`));
  for (const m of text.matchAll(/`([A-Za-z_$][\w$]*)(?:[(<.][^`]*)?`/g)) documentedNames.add(m[1]!);
}

interface Report {
  readonly package: string;
  readonly exported: number;
  readonly unused: { name: string; entry: string; documented: boolean }[];
}

const reports: Report[] = [];
for (const pkg of all) {
  if (only && pkg.name !== only) continue;
  let exported = 0;
  const unused: Report['unused'] = [];
  for (const entry of pkg.entries) {
    const names = exportedNames(entry.file);
    exported += names.length;
    const used = new Set<string>();
    for (const [owner, imports] of importsByOwner) {
      if (owner === pkg.name) continue;
      for (const name of imports.get(entry.specifier) ?? []) used.add(name);
    }
    const whole = used.has('*');
    for (const name of names)
      if (!whole && !used.has(name))
        unused.push({ name, entry: entry.specifier, documented: documentedNames.has(name) });
  }
  reports.push({ package: pkg.name, exported, unused });
}

if (json) {
  process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
} else {
  for (const r of reports) {
    if (r.unused.length === 0) continue;
    console.log(`${r.package}  ${r.unused.length} / ${r.exported}`);
    for (const u of r.unused)
      console.log(
        `  ${u.name}${u.entry !== r.package ? `  (${u.entry})` : ''}${u.documented ? '  documented' : ''}`,
      );
  }
  const exported = reports.reduce((s, r) => s + r.exported, 0);
  const unused = reports.reduce((s, r) => s + r.unused.length, 0);
  const documented = reports.reduce((s, r) => s + r.unused.filter((u) => u.documented).length, 0);
  console.log(
    `\n${unused} of ${exported} exported names are imported nowhere outside their package (${documented} of them named in a Markdown file).`,
  );
}
