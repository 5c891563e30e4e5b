// Rewrites the stack tables of README.md and packages/stacks/README.md from the listing of the
// built-in stacks (src/stack-listing.ts); src/stack-table.test.ts fails while they differ.
//
//   ./dev node --conditions=@weft/source packages/stacks/scripts/write-stack-tables.ts
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { builtinStacks } from '../src/builtin-stacks.ts';
import { stackTableReadmes, withStackTable } from '../src/stack-table.ts';

const root = path.resolve(import.meta.dirname, '../../..');
for (const readme of stackTableReadmes) {
  const file = path.join(root, readme);
  const before = await readFile(file, 'utf8');
  const after = withStackTable(before, builtinStacks());
  if (after !== before) await writeFile(file, after);
  console.log(`${readme}: ${after === before ? 'up to date' : 'table rewritten'}`);
}
