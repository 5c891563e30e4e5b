// What `./dev new` writes: a stage package in the shape of packages/traverser-ppr and
// packages/reranker-linear, and a stack of @weft/stacks that uses the stage. Pure functions of the
// names, so that the test can compare them with the packages they copy.

/** The stage kinds `./dev new` scaffolds, each with its contract of @weft/spec and its conformance suite. */
export const stageKinds = {
  traverser: {
    contract: 'TraverserV1',
    suite: 'runTraverserSuite',
    suiteTitle: 'Traverser',
    keywords: ['traverser', 'retrieval'],
  },
  reranker: {
    contract: 'RerankerV1',
    suite: 'runRerankerSuite',
    suiteTitle: 'Reranker',
    keywords: ['reranker', 'retrieval'],
  },
  planner: {
    contract: 'PlannerV1',
    suite: 'runPlannerSuite',
    suiteTitle: 'Planner',
    keywords: ['planner', 'retrieval'],
  },
} as const;

export type StageKind = keyof typeof stageKinds;

/** The names one stage package is written with. */
export interface StageNames {
  readonly kind: StageKind;
  /** The short name, e.g. `demo`. */
  readonly name: string;
  /** The folder under packages/, e.g. `traverser-demo`. */
  readonly folder: string;
  /** The npm name, e.g. `@weft/traverser-demo`. */
  readonly packageName: string;
  /** The class, e.g. `DemoTraverser`. */
  readonly className: string;
  /** Its file under src/ without `.ts`, e.g. `demo-traverser` (named after the class). */
  readonly fileName: string;
  /** One line: package.json's description, the README's first line, the changeset's. */
  readonly description: string;
}

/** The names of a stage package of `kind` called `name` (`demo` or `traverser-demo`). */
export function stageNames(kind: StageKind, name: string, description?: string): StageNames {
  const short = name.startsWith(`${kind}-`) ? name.slice(kind.length + 1) : name;
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(short)) {
    throw new Error(`the name "${name}" is not kebab-case (lower-case letters, digits, single dashes)`);
  }
  const pascal = short
    .split('-')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  const kindTitle = kind[0]!.toUpperCase() + kind.slice(1);
  const className = `${pascal}${kindTitle}`;
  return {
    kind,
    name: short,
    folder: `${kind}-${short}`,
    packageName: `@weft/${kind}-${short}`,
    className,
    fileName: `${short}-${kind}`,
    description: description ?? `TODO: one line on what ${className} does (package.json, README, changeset).`,
  };
}

/** A JSON file as the repository writes them (two spaces, a final newline). */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function packageJson(n: StageNames): string {
  return json({
    name: n.packageName,
    version: '0.1.0',
    description: n.description,
    license: 'Apache-2.0',
    type: 'module',
    sideEffects: false,
    keywords: ['weft', 'knowledge-graph', ...stageKinds[n.kind].keywords],
    exports: {
      './package.json': './package.json',
      '.': {
        '@weft/source': './src/index.ts',
        types: './dist/index.d.ts',
        import: './dist/index.js',
        default: './dist/index.js',
      },
    },
    files: ['dist', 'CHANGELOG.md'],
    engines: { node: '>=22' },
    publishConfig: { access: 'public' },
    scripts: {
      build: 'tsc -p tsconfig.build.json && publint --strict',
      typecheck: 'tsc -p tsconfig.json',
      lint: 'biome check src',
      test: 'vitest run',
    },
    dependencies: {
      '@weft/kit': 'workspace:^',
      '@weft/spec': 'workspace:^',
    },
    devDependencies: {
      '@internal/tsconfig': 'workspace:*',
      '@internal/vitest-config': 'workspace:*',
      '@types/node': 'catalog:',
      '@weft/conformance': 'workspace:*',
      publint: 'catalog:',
      typescript: 'catalog:',
      vitest: 'catalog:',
    },
  });
}

export const tsconfigJson = '{ "extends": "../../tooling/tsconfig/library.json", "include": ["src"] }\n';

export const tsconfigBuildJson = `{
  "extends": "../../tooling/tsconfig/library-build.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist" },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts", "src/**/*.test-d.ts"]
}
`;

export const vitestConfig = `import { packageConfig } from '@internal/vitest-config';

export default packageConfig();
`;

export function indexTs(n: StageNames): string {
  return `export { ${n.className}, type ${n.className}Options } from './${n.fileName}.ts';\n`;
}

/** The stage: a working starting point that passes its conformance suite, to be replaced. */
export function stageTs(n: StageNames): string {
  const head = `export interface ${n.className}Options {
  /** Shown in traces (default \`'${n.name}'\`). */
  readonly name?: string;
}
`;
  const ctor = `  readonly specificationVersion = 'v1';
  readonly name: string;

  constructor(options: ${n.className}Options = {}) {
    this.name = options.name ?? '${n.name}';
  }
`;
  switch (n.kind) {
    case 'traverser':
      return `import { narrowingTypes, searchText } from '@weft/kit';
import type { Candidate, TraverseOptions, TraverserV1 } from '@weft/spec';

${head}
/**
 * TODO: what ${n.className} finds, and how. Written by \`./dev new\`: its body is BM25 over the
 * plan's target types (the schema's when the plan names none), one \`'text'\` hop per candidate — a
 * starting point that passes the Traverser conformance suite. Replace it with the traversal.
 */
export class ${n.className} implements TraverserV1 {
${ctor}
  // Nothing of one call is kept on the instance: the pipeline shares it between queries and stores.
  async doTraverse({ query, plan, limit, context }: TraverseOptions): Promise<Candidate[]> {
    const types = narrowingTypes(
      plan.targetTypes.length > 0 ? plan.targetTypes.map((t) => t.type) : context.schema.targetTypes,
      context.schema,
    );
    // searchText keeps to the batch size the index accepts (maxQueriesPerCall).
    const [hits = []] = await searchText(context.text, [query], {
      limit,
      ...(types ? { filter: { nodeTypes: types } } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
    });
    return hits.map((hit) => ({
      id: hit.id,
      ...(hit.type === undefined ? {} : { type: hit.type }),
      score: hit.score,
      scores: { bm25: hit.score },
      trajectories: [{ hops: [{ node: hit.id, textScore: hit.score, via: 'text' as const }] }],
      source: this.name,
    }));
  }
}
`;
    case 'reranker':
      return `import type { Candidate, RerankerV1, RerankOptions } from '@weft/spec';

${head}
/**
 * TODO: what ${n.className} weighs, and how. Written by \`./dev new\`: its body orders the
 * candidates by their BM25 score (ties by id) — a starting point that passes the Reranker
 * conformance suite. Replace it with the reranking.
 */
export class ${n.className} implements RerankerV1 {
${ctor}
  /** The \`Candidate.scores\` keys it reads: the pipeline warns when no candidate carries one. */
  readonly requiredScores = ['bm25'] as const;

  async doRerank({ candidates, limit, context }: RerankOptions): Promise<Candidate[]> {
    context.abortSignal?.throwIfAborted();
    const value = (candidate: Candidate) => candidate.scores.bm25 ?? Number.NEGATIVE_INFINITY;
    return (
      [...candidates]
        .sort((a, b) => value(b) - value(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, limit)
        // Scores descend with rank, so they agree with the order.
        .map((candidate, rank, ranked) => ({ ...candidate, score: ranked.length - rank }))
    );
  }
}
`;
    case 'planner':
      return `import { emptyPlan } from '@weft/kit';
import type { Plan, PlannerV1, PlanOptions } from '@weft/spec';

${head}
/**
 * TODO: what ${n.className} reads in a question, and how. Written by \`./dev new\`: its body returns
 * the empty plan (the schema's target types, no anchor, no path) — a starting point that passes the
 * Planner conformance suite with \`linksEntities: false\`. Replace it with the planning.
 */
export class ${n.className} implements PlannerV1 {
${ctor}
  async doPlan({ query, context }: PlanOptions): Promise<Plan> {
    context.abortSignal?.throwIfAborted();
    return emptyPlan(query, context.schema);
  }
}
`;
  }
}

/** The conformance test of the stage, beside it. */
export function stageTestTs(n: StageNames): string {
  const kind = stageKinds[n.kind];
  const switches =
    n.kind === 'traverser' ? ', searchOnly: true' : n.kind === 'planner' ? ', linksEntities: false' : '';
  const note =
    n.kind === 'traverser'
      ? '\n// `searchOnly`: the scaffold searches text; drop it once the traverser follows graph paths.'
      : n.kind === 'planner'
        ? '\n// `linksEntities: false`: the scaffold anchors nothing; drop it once the planner links mentions.'
        : '';
  return `// The ${kind.suiteTitle} conformance suite of @weft/conformance, run on ${n.className}.${note}
import { ${kind.suite} } from '@weft/conformance';
import { ${n.className} } from './${n.fileName}.ts';

${kind.suite}({ name: '${n.className}', create: async () => new ${n.className}()${switches} });
`;
}

export function readme(n: StageNames): string {
  const [imports, stages] =
    n.kind === 'traverser'
      ? [`import { ${n.className} } from '${n.packageName}';`, `traversers: [new ${n.className}()]`]
      : n.kind === 'reranker'
        ? [
            `import { ${n.className} } from '${n.packageName}';\nimport { TextSearchTraverser } from '@weft/traverser-text';`,
            `traversers: [new TextSearchTraverser()], rerankers: [new ${n.className}()]`,
          ]
        : [
            `import { ${n.className} } from '${n.packageName}';\nimport { TextSearchTraverser } from '@weft/traverser-text';`,
            `planner: new ${n.className}(), traversers: [new TextSearchTraverser()]`,
          ];
  return `# ${n.packageName}

${n.description}

\`\`\`sh
npm install ${n.packageName}
\`\`\`

\`${n.className}\` implements \`${stageKinds[n.kind].contract}\` of \`@weft/spec\` and passes the ${stageKinds[n.kind].suiteTitle}
conformance suite of \`@weft/conformance\` (\`src/${n.fileName}.test.ts\`).

\`\`\`ts
import { createRetriever } from '@weft/core';
import { InMemoryGraphStore, InMemoryTextIndex, toySkb } from '@weft/core/test';
${imports}

const skb = toySkb();
const context = { schema: skb.schema, graph: new InMemoryGraphStore(skb), text: new InMemoryTextIndex(skb.nodes) };
const retriever = createRetriever({ name: '${n.name}', context, ${stages} });
const { ranking } = await retriever.doRetrieve({ query: 'telephoto lens for wildlife', limit: 5 });
console.log(ranking.map((c) => \`\${c.id} \${c.score.toFixed(2)}\`));
\`\`\`
`;
}

/** The names of a stack of @weft/stacks. */
export interface StackNames {
  /** The stack's name, e.g. `demo`. */
  readonly name: string;
  /** Its module under packages/stacks/src without `.ts`, e.g. `demo-stack`. */
  readonly fileName: string;
  /** The exported entry, e.g. `demoStack`. */
  readonly exportName: string;
  readonly description: string;
}

export function stackNames(name: string, stage: StageNames, description?: string): StackNames {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new Error(`the stack name "${name}" is not kebab-case (lower-case letters, digits, single dashes)`);
  }
  const camel = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return {
    name,
    fileName: `${name}-stack`,
    exportName: `${camel}Stack`,
    description:
      description ?? `TODO: one line for --help and the stack tables: what ${stage.className} does`,
  };
}

/** The stack's module in packages/stacks/src: the stage in a pipeline, described by the listing. */
export function stackTs(s: StackNames, n: StageNames): string {
  const [imports, stages] =
    n.kind === 'traverser'
      ? [`import { ${n.className} } from '${n.packageName}';\n`, `traversers: [new ${n.className}()],`]
      : n.kind === 'reranker'
        ? [
            `import { ${n.className} } from '${n.packageName}';\nimport { TextSearchTraverser } from '@weft/traverser-text';\n`,
            `traversers: [new TextSearchTraverser({ name: 'bm25' })],\n    rerankers: [new ${n.className}()],`,
          ]
        : [
            `import { ${n.className} } from '${n.packageName}';\nimport { TextSearchTraverser } from '@weft/traverser-text';\n`,
            `planner: new ${n.className}(),\n    traversers: [new TextSearchTraverser({ name: 'bm25' })],`,
          ];
  return `${imports}import { builtinStackDescriptions } from './stack-listing.ts';
import type { StackEntry } from './stack-registry.ts';

/**
 * The \`${s.name}\` stack: ${n.className} (${n.packageName}) in a pipeline. Its name, description and
 * whether it trains are in the listing of \`stack-listing.ts\`; a stage that learns adds its
 * \`TrainingStepV1\` to \`training\` here (and \`trains: true\` there).
 */
export const ${s.exportName}: StackEntry = {
  name: '${s.name}',
  description: builtinStackDescriptions['${s.name}'],
  create: (store) => ({
    name: '${s.name}',
    context: store.context,
    ${stages}
  }),
};
`;
}

/** The stack's conformance test: the Retriever suite over the built stack. */
export function stackTestTs(s: StackNames): string {
  return `// The Retriever conformance suite on the \`${s.name}\` stack, built from the registry.
import { runRetrieverSuite } from '@weft/conformance';
import { createStack } from './index.ts';

runRetrieverSuite({ name: '${s.name} stack', create: (context) => createStack('${s.name}', { context }) });
`;
}

/** A TypeScript string literal as biome writes it: single quotes, unless the text holds one. */
function literal(text: string): string {
  const escaped = text.replaceAll('\\', '\\\\');
  if (text.includes("'") && !text.includes('"')) return `"${escaped}"`;
  return `'${escaped.replaceAll("'", "\\'")}'`;
}

/** The listing entry of `stack-listing.ts`, indented as the list is. */
export function listingEntry(s: StackNames): string {
  const description = `    description: ${literal(s.description)},`;
  return [
    '  {',
    `    name: '${s.name}',`,
    description.length <= 110 ? description : `    description:\n      ${literal(s.description)},`,
    '    trains: false,',
    `    module: '${s.fileName}',`,
    '  },',
    '',
  ].join('\n');
}

/** The stack module's loader among those of `builtin-stacks.ts`, indented as they are. */
export function loaderEntry(s: StackNames): string {
  return `  '${s.fileName}': () => import('./${s.fileName}.ts').then((m) => [m.${s.exportName}]),\n`;
}

/** The changeset of the new package (and of @weft/stacks, when a stack uses it). */
export function changeset(n: StageNames, s?: StackNames): string {
  return `---
"${n.packageName}": minor
${s ? '"@weft/stacks": minor\n' : ''}---

New package \`${n.packageName}\` (\`${n.className}\`): ${n.description}${s ? ` New stack \`${s.name}\`: ${s.description}` : ''}
`;
}
