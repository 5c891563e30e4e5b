/**
 * Writes docs/results.md: every stack on every query set of the three development KBs — WordNet 3.0
 * with the team's judged sets (../shared, skipped with a note when missing), Pokémon (built from the
 * @pkmn/dex npm package, hand-judged sets in devkit/kb-pokemon) and Debian (built from the local apt
 * lists, hand-judged sets in devkit/kb-debian; skipped with a note when the lists are missing) —
 * val and test, each table from `weft eval` with bm25 and bm25-rel in the same run (paired 95%
 * bootstrap CIs against both), under three training regimes: untrained, trained from the store alone
 * (`weft train --db`), and trained on the bundle's labelled queries (`weft train <bundle>`); both
 * training regimes train every stack with a training step (`weft train` without `--stack`).
 *
 * Every table holds every offline stack and the LLM stacks (those the listing of @weft/stacks marks `llm`)
 * without a model: `weft eval` runs with WEFT_MODEL unset, and each LLM stage falls back to its
 * offline counterpart (a stage warning "no language model is configured: …").
 *
 *   ./dev node --conditions=@weft/source devkit/results/src/generate-results.ts \
 *     [--work .weft/results] [--splits val,test] [--max-queries 300] [--out docs/results.md]
 *     [--kb wordnet,pokemon,debian] [--regimes 1,2,3] [--no-oracles]
 *
 * Stores are built once into --work and reused; training replaces their artifacts each regime.
 * Where a query set carries gold anchors (`meta.anchors`), every table shows the stacks' anchor
 * linking, and after the last regime (trained on labels) more runs per split show where the loss
 * is: `--oracle anchors` (every stack planned on the gold anchors) beside the stacks' own, and
 * `--oracle model` / `--oracle noisy-model` (the LLM stacks on gold plans, no provider). The gold
 * run records the oracle model's calls into a cassette (`--record <work>/cassettes/…`), and the LLM
 * stacks are run once more from it (`--replay … --llm-when always`, no oracle, no provider): the
 * figures must equal the oracle run's, which the section checks and says.
 * `--no-oracles` leaves those runs out.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildDebianBundle, locateAptLists } from '@weft-dev/kb-debian';
import { buildPokemonBundle } from '@weft-dev/kb-pokemon';
import { builtinStacks } from '@weft/stacks/registry';

const root = path.resolve(import.meta.dirname, '../../..');
const { values } = parseArgs({
  options: {
    work: { type: 'string', default: path.join(root, '.weft', 'results') },
    splits: { type: 'string', default: 'val,test' },
    'max-queries': { type: 'string', default: '300' },
    out: { type: 'string', default: path.join(root, 'docs', 'results.md') },
    kb: { type: 'string', default: 'wordnet,pokemon,debian' },
    'no-oracles': { type: 'boolean', default: false },
    /** Regimes to run, by position (1 untrained, 2 from the store, 3 on labels); default all. */
    regimes: { type: 'string', default: '1,2,3' },
  },
});
const work = path.resolve(values.work!);
const splits = values.splits!.split(',');
const maxQueries = values['max-queries']!;
const weft = path.join(root, 'weft');
/** ../shared beside the checkout, or beside the main checkout when this is a git worktree. */
function sharedDirectory(): string {
  if (process.env.WEFT_SHARED) return process.env.WEFT_SHARED;
  const beside = path.resolve(root, '../shared');
  if (existsSync(beside)) return beside;
  try {
    const common = execFileSync('git', ['rev-parse', '--path-format=absolute', '--git-common-dir'], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const main = path.resolve(path.dirname(common), '../shared');
    if (existsSync(main)) return main;
  } catch {
    // Not a git checkout: ../shared it is.
  }
  return beside;
}
const shared = sharedDirectory();

interface Linking {
  n: number;
  recall: number;
  recallTop1: number;
  mentionsPerQuery: number;
  precision: number;
}

interface Summary {
  set: string;
  split: string;
  n: number;
  oracle?: string;
  stacks: {
    stack: string;
    hit1: number;
    hit5: number;
    recall20: number;
    mrr: number;
    latencyMs: { p50: number; p95: number };
    llmCallsPerQuery?: number;
    linking?: Linking;
  }[];
  comparisons: {
    baseline: string;
    stack: string;
    hit1: { diff: number; low: number; high: number; significant: boolean };
    mrr: { diff: number; low: number; high: number; significant: boolean };
  }[];
}

/** Without WEFT_MODEL: no LLM stack here has a model unless a run gives it one (oracle, cassette). */
const { WEFT_MODEL: _model, ...env } = process.env;

function run(args: string[]): string {
  const started = performance.now();
  console.error(`weft ${args.join(' ')}`);
  const out = execFileSync(weft, args, {
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 << 20,
  });
  console.error(`  ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return out;
}

interface QuerySet {
  set: string;
  splits: Set<string>;
  /** Queries per split. */
  sizes: Map<string, number>;
  anchored: boolean;
}

async function querySets(bundle: string): Promise<QuerySet[]> {
  const out: QuerySet[] = [];
  for (const file of (await readdir(path.join(bundle, 'queries'))).sort()) {
    // A set's judging annotations (queries/<set>.annotations.jsonl) are no query set.
    if (!file.endsWith('.jsonl') || file.endsWith('.annotations.jsonl')) continue;
    const text = await readFile(path.join(bundle, 'queries', file), 'utf8');
    const queries = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { split: string; meta?: { anchors?: unknown } });
    out.push({
      set: file.replace(/\.jsonl$/, ''),
      splits: new Set(queries.map((q) => q.split)),
      sizes: queries.reduce(
        (sizes, q) => sizes.set(q.split, (sizes.get(q.split) ?? 0) + 1),
        new Map<string, number>(),
      ),
      anchored: queries.some((q) => Array.isArray(q.meta?.anchors) && q.meta.anchors.length > 0),
    });
  }
  return out;
}

/** The built-in stacks, from their one listing in @weft/stacks (no stack's code is imported). */
const listed = builtinStacks();
/** Every stack that runs without a language model, in `weft eval --help`'s order. */
const offlineStacks = listed.filter((s) => !s.llm).map((s) => s.name);
/** The stacks whose stages ask a language model; without one each stage falls back offline. */
const llmStacks: readonly string[] = listed.filter((s) => s.llm).map((s) => s.name);
/** How a table names a stack: the LLM stacks ran without a model. */
const shown = (stack: string) => (llmStacks.includes(stack) ? `${stack} (no model)` : stack);

const allRegimes = [
  {
    name: 'untrained',
    describe: 'no `weft train`: what a new user gets right after `weft ingest`',
    train: undefined as ((bundle: string, db: string) => string[]) | undefined,
  },
  {
    name: 'trained from the store alone',
    describe:
      '`weft train --db <store>`: every stack with a training step, on queries synthesised from the KB, no labelled query',
    train: (_bundle: string, db: string) => ['train', '--db', db],
  },
  {
    name: 'trained on labelled queries',
    describe:
      "`weft train <bundle> --db <store>`: every stack with a training step, on the bundle's train splits (settings on val), plus text-only queries synthesised from the KB",
    train: (bundle: string, db: string) => ['train', bundle, '--db', db],
  },
];

const chosenRegimes = new Set(values.regimes!.split(',').map(Number));
const regimes = allRegimes.filter((_, i) => chosenRegimes.has(i + 1));

const fmt = (v: number) => v.toFixed(1);
function table(summary: Summary): string {
  const rows = summary.stacks.map(
    (s) =>
      `| ${shown(s.stack)} | ${fmt(s.hit1)} | ${fmt(s.hit5)} | ${fmt(s.recall20)} | ${fmt(s.mrr)} | ${fmt(s.latencyMs.p50)} |`,
  );
  const diffs = summary.comparisons
    .filter((c) => c.stack === 'default' || c.baseline === 'bm25')
    .map(
      (c) =>
        `| ${shown(c.stack)} vs ${c.baseline} | ${c.hit1.diff > 0 ? '+' : ''}${fmt(c.hit1.diff)}${c.hit1.significant ? '*' : ''} | [${fmt(c.hit1.low)}, ${fmt(c.hit1.high)}] | ${c.mrr.diff > 0 ? '+' : ''}${fmt(c.mrr.diff)}${c.mrr.significant ? '*' : ''} | [${fmt(c.mrr.low)}, ${fmt(c.mrr.high)}] |`,
    );
  return [
    `${summary.n} queries, rankings of 100; metrics in %, p50 latency in ms (concurrency 4, every stack in one process)`,
    '',
    '| stack | Hit@1 | Hit@5 | R@20 | MRR | p50 |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    '| paired difference (points; * = 95% CI excludes 0) | ΔHit@1 | CI | ΔMRR | CI |',
    '|---|---:|---|---:|---|',
    ...diffs,
    ...linkingTable(summary),
  ].join('\n');
}

/** The stacks' anchor linking against the gold anchors, when the set carries them. */
function linkingTable(summary: Summary): string[] {
  const linked = summary.stacks.filter((s) => s.linking && s.linking.mentionsPerQuery > 0);
  if (linked.length === 0) return [];
  return [
    '',
    `Anchor linking (${linked[0]!.linking!.n} queries with gold anchors; plan anchors of confidence ≥ 0.2): share of queries with every gold anchor among a plan anchor's top 3 candidates / as a top candidate, plan anchors per question, share of plan anchors whose top candidate is gold`,
    '',
    '| stack | linked (top 3) | linked (top 1) | mentions/question | precision |',
    '|---|---:|---:|---:|---:|',
    ...linked.map(
      (s) =>
        `| ${shown(s.stack)} | ${fmt(s.linking!.recall)} | ${fmt(s.linking!.recallTop1)} | ${s.linking!.mentionsPerQuery.toFixed(2)} | ${fmt(s.linking!.precision)} |`,
    ),
  ];
}

/** Stacks run with their own anchors and with the gold ones (`--oracle anchors`): the offline ones that plan. */
const anchorOracleStacks = listed.filter((s) => !s.llm && !s.baseline).map((s) => s.name);
/** Stacks run on the oracle model (`--oracle model`, `--oracle noisy-model`) and from its cassette. */
const modelOracleStacks = llmStacks;

/**
 * Where the loss is, on one split of a set with gold anchors: each stack with its own anchors and
 * with the gold ones, and the LLM stacks on gold plans and on 30 % wrong ones. Returns the section.
 */
function oracleSection(kb: string, bundle: string, db: string, set: string, split: string): string {
  const cassette = path.join(work, 'cassettes', `${kb}-${set}-${split}.jsonl`);
  const show = (args: string[]) =>
    `\`weft ${args
      .filter((a) => a !== '--json')
      .map((a) =>
        a === db
          ? '<store>'
          : a === bundle
            ? '<bundle>'
            : a === cassette
              ? `<work>/cassettes/${path.basename(cassette)}`
              : a,
      )
      .join(' ')}\``;
  const base = ['eval', bundle, '--db', db, '--set', set, '--split', split, '--max-queries', maxQueries];
  const stacks = (names: readonly string[]) => names.flatMap((name) => ['--stack', name]);
  const own = [...base, ...stacks(anchorOracleStacks), '--json'];
  const gold = [...own, '--oracle', 'anchors'];
  const ownSummary = JSON.parse(run(own)) as Summary;
  const goldSummary = JSON.parse(run(gold)) as Summary;
  const anchorRows = ownSummary.stacks.map((s) => {
    const g = goldSummary.stacks.find((x) => x.stack === s.stack)!;
    const l = s.linking;
    const delta = g.hit1 - s.hit1;
    return `| ${s.stack} | ${l ? `${fmt(l.recall)} / ${fmt(l.recallTop1)}` : '–'} | ${l ? l.mentionsPerQuery.toFixed(2) : '–'} | ${l ? fmt(l.precision) : '–'} | ${fmt(s.hit1)} / ${fmt(s.recall20)} | ${fmt(g.hit1)} / ${fmt(g.recall20)} | ${delta > 0 ? '+' : ''}${fmt(delta)} |`;
  });
  const model = [...base, ...stacks(modelOracleStacks), '--json', '--oracle', 'model', '--record', cassette];
  const noisy = [...base, ...stacks(modelOracleStacks), '--json', '--oracle', 'noisy-model'];
  const replay = [
    ...base,
    ...stacks(modelOracleStacks),
    '--json',
    '--replay',
    cassette,
    '--llm-when',
    'always',
  ];
  const modelSummary = JSON.parse(run(model)) as Summary;
  const noisySummary = JSON.parse(run(noisy)) as Summary;
  const replaySummary = JSON.parse(run(replay)) as Summary;
  const figures = (s: Summary['stacks'][number] | undefined) =>
    s
      ? JSON.stringify([s.hit1, s.hit5, s.recall20, s.mrr, s.llmCallsPerQuery ?? 0, s.linking ?? null])
      : 'missing';
  let differing = 0;
  const modelRows = modelSummary.stacks.map((s) => {
    const n = noisySummary.stacks.find((x) => x.stack === s.stack)!;
    const r = replaySummary.stacks.find((x) => x.stack === s.stack);
    const same = figures(r) === figures(s);
    if (!same) differing++;
    return `| ${s.stack} | ${fmt(s.hit1)} / ${fmt(s.recall20)} / ${fmt(s.mrr)} | ${r ? `${fmt(r.hit1)} / ${fmt(r.recall20)} / ${fmt(r.mrr)}` : '–'} | ${same ? 'yes' : '**no**'} | ${fmt(n.hit1)} / ${fmt(n.recall20)} / ${fmt(n.mrr)} | ${s.linking ? fmt(s.linking.recall) : '–'} | ${(s.llmCallsPerQuery ?? 0).toFixed(2)} |`;
  });
  if (differing > 0)
    console.error(
      `warning: ${kb} ${set}/${split}: ${differing} stack(s) replayed other figures than recorded`,
    );
  const recordedCalls = existsSync(cassette)
    ? readFileSync(cassette, 'utf8').split('\n').filter(Boolean).length
    : 0;
  return [
    `#### ${set} — ${split}: where the loss is`,
    '',
    `Linking against the gold anchors, and each stack's Hit@1 / R@20 with its own anchors and with the gold ones (\`--oracle anchors\`: the gold nodes as the only candidates, confidence 1). ${ownSummary.n} queries. A stack whose plan carries no anchor shows 0: bm25 plans none, and KAR links entities in its expander, outside the plan (the anchor oracle reaches its planner only).`,
    '',
    `${show(own)}  \n${show(gold)}`,
    '',
    '| stack | linked top 3 / top 1 | mentions/question | precision | own anchors Hit@1 / R@20 | gold anchors Hit@1 / R@20 | ΔHit@1 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...anchorRows,
    '',
    "The LLM stacks on the oracle model (`--oracle model`: every LLM stage answered from the query set's gold annotations — the planners and HybGRAG's router with the gold plan, the listwise reranker with the gold answers first, HybGRAG's critic accepting results that reach a gold answer or came by the gold route and else pointing at the module or the anchor, KAR's expansion naming the gold answers among its facts, MixRAG's gate weighing text and structure by the gold path; no provider), replayed from the cassette that run recorded, and on the noisy oracle (`--oracle noisy-model`: 30% of the plans wrong, anchor or relation, and 30% of each other stage's answers, seeded). Hit@1 / R@20 / MRR; the planners ask on every query.",
    '',
    `The replay is the LLM stacks' path through a recorded model: the gold run records every call into a cassette (${recordedCalls} calls), and the replay runs the same stacks with no oracle and no provider, each call answered from the cassette by its request's hash (\`--llm-when always\`, as the oracle sets it). "same" says whether Hit@1, Hit@5, R@20, MRR, LLM calls per query and linking are equal to the gold run's${differing === 0 ? ': they are, for every stack' : `: ${differing} stack(s) differ`}.`,
    '',
    `${show(model)}  \n${show(replay)}  \n${show(noisy)}`,
    '',
    '| stack | gold plans | replayed from the cassette | same | 30% wrong plans | linked (top 3) on gold plans | LLM calls/query |',
    '|---|---:|---:|---|---:|---:|---:|',
    ...modelRows,
    '',
  ].join('\n');
}

const kbs: {
  name: string;
  /** Where the bundle comes from, for the section's first line. */
  source: string;
  /** Why it was skipped when the bundle cannot be had. */
  missing: string;
  bundle: () => Promise<string | undefined>;
}[] = [
  {
    name: 'wordnet',
    source: '../shared/datasets/wordnet',
    missing: 'no bundle (the WordNet judged sets live in ../shared/datasets/wordnet)',
    bundle: async () => {
      const bundle = path.join(shared, 'datasets', 'wordnet');
      return existsSync(bundle) ? bundle : undefined;
    },
  },
  {
    name: 'pokemon',
    source: 'devkit/kb-pokemon (built from @pkmn/dex)',
    missing: 'the bundle could not be built',
    bundle: async () => {
      const bundle = path.join(work, 'pokemon-bundle');
      if (!existsSync(path.join(bundle, 'SOURCE.md'))) {
        await rm(bundle, { recursive: true, force: true });
        await buildPokemonBundle({ out: bundle });
      }
      return bundle;
    },
  },
  {
    name: 'debian',
    source: "devkit/kb-debian (built from apt's lists of Debian 12 bookworm main, amd64)",
    missing:
      "no apt lists of Debian bookworm main in /var/lib/apt/lists (devkit/kb-debian's README says how to get them)",
    bundle: async () => {
      const bundle = path.join(work, 'debian-bundle');
      if (!existsSync(path.join(bundle, 'SOURCE.md'))) {
        if (!locateAptLists()) return undefined;
        await rm(bundle, { recursive: true, force: true });
        await buildDebianBundle({ out: bundle });
      }
      return bundle;
    },
  },
].filter((kb) => values.kb!.split(',').includes(kb.name));

const sections: string[] = [];
const headline: string[] = [];
/** The sets and splits the oracle model and its cassette ran on, e.g. `pokemon hybrid/val`. */
const replayed: string[] = [];
/** Splits cut by --max-queries, e.g. `wordnet wn18rr/test (3022)`. */
const cut: string[] = [];
const began = performance.now();
const minutes = (since: number) => `${((performance.now() - since) / 60_000).toFixed(1)} min`;
for (const kb of kbs) {
  const bundle = await kb.bundle();
  if (!bundle) {
    sections.push(`## ${kb.name}\n\nSkipped: ${kb.missing}.\n`);
    continue;
  }
  const db = path.join(work, `${kb.name}-store`);
  if (!existsSync(path.join(db, 'store.json'))) run(['ingest', bundle, '--db', db]);
  const sets = await querySets(bundle);
  for (const { set, sizes } of sets)
    for (const split of splits)
      if ((sizes.get(split) ?? 0) > Number(maxQueries))
        cut.push(`${kb.name} ${set}/${split} (${sizes.get(split)})`);
  sections.push(
    `## ${kb.name}\n\nBundle \`${kb.source}\`; store built by \`weft ingest\`. Query sets: ${sets.map((s) => `${s.set} (${splits.filter((split) => s.splits.has(split)).join(', ') || `no ${splits.join('/')} split`})`).join(', ')}.\n`,
  );
  for (const [r, regime] of regimes.entries()) {
    const regimeBegan = performance.now();
    await rm(path.join(db, 'artifacts'), { recursive: true, force: true });
    if (regime.train) run(regime.train(bundle, db));
    sections.push(`### ${kb.name} — ${regime.name}\n\n${regime.describe}.\n`);
    for (const { set, splits: present } of sets) {
      for (const split of splits) {
        if (!present.has(split)) continue;
        const args = [
          'eval',
          bundle,
          '--db',
          db,
          '--set',
          set,
          '--split',
          split,
          '--compare-to',
          'bm25-rel',
          '--max-queries',
          maxQueries,
          '--json',
        ];
        for (const stack of [...offlineStacks, ...llmStacks].filter((s) => s !== 'bm25' && s !== 'bm25-rel'))
          args.push('--stack', stack);
        const summary = JSON.parse(run(args)) as Summary;
        sections.push(
          `#### ${set} — ${split}\n\n\`weft ${args
            .filter((a) => a !== '--json')
            .map((a) => (a === db ? '<store>' : a === bundle ? '<bundle>' : a))
            .join(' ')}\`\n\n${table(summary)}\n`,
        );
        const row = (name: string) => summary.stacks.find((s) => s.stack === name)!;
        if (split === 'test' || !splits.includes('test')) {
          headline.push(
            `| ${kb.name} | ${set} (${split}, ${summary.n}) | ${regime.name} | ${fmt(row('bm25').hit1)} / ${fmt(row('bm25').mrr)} | ${fmt(row('bm25-rel').hit1)} / ${fmt(row('bm25-rel').mrr)} | **${fmt(row('default').hit1)} / ${fmt(row('default').mrr)}** | ${fmt(row('default').recall20)} | ${row('default').linking ? `${fmt(row('default').linking!.recall)} (${row('default').linking!.mentionsPerQuery.toFixed(1)})` : '–'} |`,
          );
        }
      }
    }
    // The loss decomposition runs on the last regime's (trained on labels) artifacts.
    if (r === regimes.length - 1 && !values['no-oracles']) {
      for (const { set, splits: present, anchored } of sets) {
        if (!anchored) continue;
        for (const split of splits)
          if (present.has(split)) {
            sections.push(oracleSection(kb.name, bundle, db, set, split));
            replayed.push(`${kb.name} ${set}/${split}`);
          }
      }
    }
    console.error(`${kb.name} — ${regime.name}: ${minutes(regimeBegan)} (${minutes(began)} in all)`);
  }
}

const flags = [
  `--splits ${values.splits}`,
  `--max-queries ${maxQueries}`,
  ...(values.kb === 'wordnet,pokemon,debian' ? [] : [`--kb ${values.kb}`]),
  ...(values.regimes === '1,2,3' ? [] : [`--regimes ${values.regimes}`]),
  ...(values['no-oracles'] ? ['--no-oracles'] : []),
].join(' ');

const document = `# Results

Generated by one command (stores are built into \`.weft/results\` on the first run):

\`\`\`
./dev node --conditions=@weft/source devkit/results/src/generate-results.ts ${flags}
\`\`\`

Every stack on every query set of the three development KBs (WordNet, Pokémon, Debian), as
\`weft eval\` reports it, with bm25 and the relation-aware baseline bm25-rel in the same run and
paired 95% bootstrap confidence intervals against both. \`--max-queries ${maxQueries}\` keeps the first
${maxQueries} queries of a split (${cut.length ? `cut: ${cut.join(', ')}` : 'no split here is larger'}). Settings were chosen on train and val
only; test figures were computed for this report. The whole run took ${minutes(began)}.

Every table holds every offline stack (${offlineStacks.join(', ')}) and the LLM stacks
(${llmStacks.join(', ')}) through their offline fallback, marked "(no model)": the runs have no
\`--model\` and no \`WEFT_MODEL\`, which is no error — each LLM stage then warns "no language model is
configured" and does what its offline counterpart does (mor's and focused's planners plan with the
schema planner, focused's listwise reranker keeps the order, hybgrag's router takes the offline route
and its critic the rule-based verdict, kar expands offline, mixrag's learned gate weighs the
experts). Without a model mor, focused and kar rank exactly as their \`-offline\` halves (an offline
plan weighs by its confidence in both, kar searches with BM25 alone in both; a test checks it); a
"(no model)" row that differs from its \`-offline\` row shows where the two pipelines differ. The trained regimes train every stack
with a training step (\`weft train\` without \`--stack\`), so the tables measure trained stacks.

The same LLM stacks through a model are measured where a set carries gold anchors, after the last
regime: on the oracle model (gold plans, no provider) and replayed from a cassette that run recorded
(\`weft eval --oracle model --record <cassette>\`, then \`weft eval --replay <cassette> --llm-when
always\`), which shows the replay path gives the recorded run's figures. No real model is measured:
there is no provider here, and a cassette of one would be replayed the same way. The oracle needs
gold anchors (\`meta.anchors\`), so this ran on ${replayed.length ? replayed.join(', ') : 'no set (none of the sets here carries gold anchors, or --no-oracles)'}; the sets without
gold anchors (the text-only sets, WordNet's definitions and wn18rr) have the LLM stacks through their
offline fallback only.

## Headline: the default stack against bm25 and bm25-rel (Hit@1 / MRR)

| KB | set (split, n) | regime | bm25 | bm25-rel | default | default R@20 | default linked, top 3 (mentions/question) |
|---|---|---|---:|---:|---:|---:|---:|
${headline.join('\n')}

${sections.join('\n')}`;
await writeFile(values.out!, document);
console.error(`wrote ${values.out}`);
