import type { BuiltinStackListing } from './builtin-stacks.ts';

/** The command that rewrites the stack tables from the listing, from the repository root. */
export const stackTableCommand =
  './dev node --conditions=@weft/source packages/stacks/scripts/write-stack-tables.ts';

/** The READMEs (from the repository root) that show the stack table. */
export const stackTableReadmes = ['README.md', 'packages/stacks/README.md'] as const;

/** The lines around a README's stack table. */
export const stackTableMarkers = {
  begin: `<!-- stack table: generated from the listing in packages/stacks/src/stack-listing.ts by ${stackTableCommand} -->`,
  end: '<!-- end of the stack table -->',
} as const;

/** The markdown table of `stacks`: name, description, whether it asks an LLM, whether it trains. */
export function stackTable(stacks: readonly BuiltinStackListing[]): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  return [
    '| stack | what | LLM | `weft train` |',
    '|---|---|---|---|',
    ...stacks.map(
      (s) =>
        `| \`${s.name}\` | ${cell(s.description)} | ${s.llm ? 'yes' : 'no'} | ${s.trains ? 'yes' : 'no'} |`,
    ),
  ].join('\n');
}

/**
 * `readme` with the table between its stack-table markers replaced by the table of `stacks`. A
 * README without the markers is an error (it names them).
 */
export function withStackTable(readme: string, stacks: readonly BuiltinStackListing[]): string {
  const { begin, end } = stackTableMarkers;
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`no stack table: the README needs the lines\n${begin}\n${end}`);
  return `${readme.slice(0, from)}${begin}\n${stackTable(stacks)}\n${readme.slice(to)}`;
}
