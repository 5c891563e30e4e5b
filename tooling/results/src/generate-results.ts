/**
 * Writes docs/results.md: every stack on every query set of a bundle, val and test, each table
 * from `weft eval` (bm25 is the yardstick, with paired 95% bootstrap confidence intervals).
 *
 *   ./dev node --conditions=@weft/source tooling/results/src/generate-results.ts \
 *     --db <store> [--bundle ../shared/datasets/wordnet] [--max-queries N] [--out docs/results.md]
 *
 * The store must have been built by `weft ingest` and trained by `weft train`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    bundle: { type: 'string', default: path.resolve(root, '../shared/datasets/wordnet') },
    'max-queries': { type: 'string' },
    out: { type: 'string', default: path.join(root, 'docs/results.md') },
    stack: { type: 'string', multiple: true },
  },
});
if (!values.db) {
  console.error(
    'usage: generate-results.ts --db <store> [--bundle <dir>] [--max-queries N] [--out docs/results.md]',
  );
  process.exit(2);
}
const stacks = values.stack ?? ['bm25', 'vector', 'hybrid-rrf', 'default', 'mor-offline', 'focused-offline'];
const bundle = values.bundle!;
const runs: { set: string; split: string }[] = [];
for (const file of fs.readdirSync(path.join(bundle, 'queries')).sort()) {
  const set = file.replace(/\.jsonl(\.gz)?$/, '');
  const splits = new Set(
    fs
      .readFileSync(path.join(bundle, 'queries', file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { split: string }).split),
  );
  for (const split of ['val', 'test']) if (splits.has(split)) runs.push({ set, split });
}

const sections: string[] = [];
for (const { set, split } of runs) {
  const args = [
    'eval',
    bundle,
    '--db',
    values.db,
    '--set',
    set,
    '--split',
    split,
    ...stacks.flatMap((s) => ['--stack', s]),
  ];
  if (values['max-queries']) args.push('--max-queries', values['max-queries']);
  console.error(`weft ${args.join(' ')}`);
  const table = execFileSync(path.join(root, 'weft'), args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  sections.push(
    `## ${set} — ${split}\n\n\`weft ${args.map((a) => (a === values.db ? '<store>' : a === bundle ? '<bundle>' : a)).join(' ')}\`\n\n${table.trim()}\n`,
  );
}

const header = `# Results

Every stack on every query set of \`${path.basename(bundle)}\`, val and test, as \`weft eval\` reports
them: Hit@1, Hit@5, Recall@20 and MRR (over the top 100) in percent, with paired 95% bootstrap
confidence intervals of the difference to bm25. Settings were chosen on train/val only; no test
figure chose anything (definitions has no val split, so its test figure is the only check of it).${
  values['max-queries']
    ? `\n\n\`--max-queries ${values['max-queries']}\` keeps the first ${values['max-queries']} queries of each split: wn18rr val and test
(2,785 and 3,022 queries) are cut to that many; hybrid and definitions are complete.`
    : ''
}
Latencies in these tables are per query with 4 retrievals at once and every stack in one process
(2-core machine), so they overstate a single query's cost; the speed figures of record come from
\`apps/cli/bench/stack-latency.ts\` (one stack, sequential, after a warm-up).

Regenerate (after \`weft ingest\` and \`weft train\`):

\`\`\`
./dev node --conditions=@weft/source tooling/results/src/generate-results.ts --db <store>${values['max-queries'] ? ` --max-queries ${values['max-queries']}` : ''}
\`\`\`
`;
fs.writeFileSync(values.out!, `${header}\n${sections.join('\n')}`);
console.error(`wrote ${values.out}`);
