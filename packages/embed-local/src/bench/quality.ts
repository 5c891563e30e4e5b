/**
 * Embedder quality on WordNet VAL splits (hybrid val + the first WN_VAL wn18rr val queries), exact
 * (brute-force) cosine search in memory, metrics as shared/SKB-FORMAT.md defines them (ranked list
 * length 100; WordNet's target types are all types). Also: self-retrieval (a node's own document as
 * the query, rank-1 rate over 300 seeded nodes) and the basis' orthonormality.
 *   node --conditions=@weft/source src/bench/quality.ts '[{"label":"default"},{"label":"p=0.5","singularValuePower":0.5}]'
 */
import { createReadStream, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import {
  defaultLocalEmbedderOptions,
  type LocalEmbedderOptions,
  LocalEmbeddingModel,
} from '../local-embedding-model.ts';
import { TfidfVectorizer } from '../tfidf-vectorizer.ts';

interface Query {
  query: string;
  answers: string[];
  split: string;
}

export function wordnetDirectory(): string {
  if (process.env.WEFT_SHARED) return path.join(process.env.WEFT_SHARED, 'datasets', 'wordnet');
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'pnpm-workspace.yaml'))) dir = path.dirname(dir);
  return path.resolve(dir, '../shared/datasets/wordnet');
}

export async function* jsonLines<T>(file: string): AsyncGenerator<T> {
  const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
  for await (const line of readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim()) yield JSON.parse(line) as T;
  }
}

/** STaRK metrics of one query (distinct ids; Recall@20 over |gold|; MRR over the whole list). */
export function metrics(ranked: readonly string[], gold: readonly string[]) {
  const g = new Set(gold);
  const list = [...new Set(ranked)];
  const first = list.findIndex((id) => g.has(id));
  return {
    hit1: first === 0 ? 1 : 0,
    hit5: first >= 0 && first < 5 ? 1 : 0,
    r20: list.slice(0, 20).filter((id) => g.has(id)).length / g.size,
    mrr: first >= 0 ? 1 / (first + 1) : 0,
  };
}

export function meanPercent(all: ReturnType<typeof metrics>[]) {
  const m = (k: keyof ReturnType<typeof metrics>) =>
    ((100 * all.reduce((s, x) => s + x[k], 0)) / Math.max(1, all.length)).toFixed(1);
  return `${m('hit1')} / ${m('hit5')} / ${m('r20')} / ${m('mrr')}`;
}

/** Indices of the `k` largest scores, best first. */
export function topK(scores: Float32Array, k: number): number[] {
  const idx: number[] = [];
  let floor = -Infinity;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (idx.length < k || s > floor) {
      idx.push(i);
      if (idx.length > 2 * k) {
        idx.sort((a, b) => scores[b]! - scores[a]!);
        idx.length = k;
        floor = scores[idx[k - 1]!]!;
      }
    }
  }
  idx.sort((a, b) => scores[b]! - scores[a]!);
  return idx.slice(0, k);
}

const bundle = wordnetDirectory();
// Its figures are measured on the team's judged WordNet queries, which a fresh clone does not have.
if (!existsSync(path.join(bundle, 'queries'))) {
  console.log(
    `skipped: needs the judged WordNet queries in ${bundle} (set WEFT_SHARED to the folder holding datasets/)`,
  );
  process.exit(0);
}
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ids: string[] = [];
  const docs: string[] = [];
  for await (const n of jsonLines<{ id: string; name: string; aliases?: string[]; text: string }>(
    path.join(bundle, 'nodes.jsonl.gz'),
  )) {
    ids.push(n.id);
    docs.push([n.name, ...(n.aliases ?? []), n.text].filter((p) => p.length > 0).join(' ; '));
  }
  const sets: [string, Query[]][] = [];
  for (const [set, max] of [
    ['hybrid', Infinity],
    ['wn18rr', Number(process.env.WN_VAL ?? 300)],
  ] as const) {
    const qs: Query[] = [];
    for await (const q of jsonLines<Query>(path.join(bundle, 'queries', `${set}.jsonl`)))
      if (q.split === 'val' && qs.length < max) qs.push(q);
    sets.push([`${set} val (${qs.length})`, qs]);
  }
  console.log(`WordNet ${docs.length} docs, ${os.cpus().length} CPUs; Hit@1 / Hit@5 / R@20 / MRR in %`);
  const variants = JSON.parse(process.argv[2] ?? '[{"label":"default"}]') as (LocalEmbedderOptions & {
    label: string;
  })[];
  /** Each query set's figures for a search returning document indices, best first. */
  const scoreSets = (search: (text: string, k: number) => number[]) =>
    sets.map(
      ([name, qs]) =>
        `${name} ${meanPercent(
          qs.map((q) =>
            metrics(
              search(q.query, 100).map((i) => ids[i]!),
              q.answers,
            ),
          ),
        )}`,
    );
  for (const { label, ...options } of variants) {
    if (label.startsWith('sparse')) {
      // The ceiling LSA approximates: cosine over the full TF-IDF rows, through an inverted index.
      const o = { ...defaultLocalEmbedderOptions, ...options };
      const v = await TfidfVectorizer.fit(docs, o);
      const postings: { doc: number; w: number }[][] = Array.from({ length: v.size }, () => []);
      docs.forEach((doc, i) => {
        const r = v.transform(doc);
        r.indices.forEach((f, k) => {
          postings[f]!.push({ doc: i, w: r.values[k]! });
        });
      });
      const search = (text: string, k: number) => {
        const r = v.transform(text);
        const scores = new Float32Array(docs.length);
        r.indices.forEach((f, j) => {
          for (const p of postings[f]!) scores[p.doc] = scores[p.doc]! + p.w * r.values[j]!;
        });
        return topK(scores, k);
      };
      console.log(`${label}: ${scoreSets(search).join(' | ')}`);
      continue;
    }
    let t0 = performance.now();
    const model = await LocalEmbeddingModel.fit(() => docs, options);
    const fitS = (performance.now() - t0) / 1000;
    t0 = performance.now();
    const d = model.dimensions;
    const matrix = new Float32Array(docs.length * d);
    docs.forEach((doc, i) => {
      matrix.set(model.embedOne(doc), i * d);
    });
    const embedS = (performance.now() - t0) / 1000;
    const search = (text: string, k: number) => {
      const q = model.embedOne(text);
      const scores = new Float32Array(docs.length);
      for (let i = 0; i < docs.length; i++) {
        let s = 0;
        const base = i * d;
        for (let j = 0; j < d; j++) s += q[j]! * matrix[base + j]!;
        scores[i] = s;
      }
      return topK(scores, k);
    };
    let self = 0;
    for (let t = 0; t < 300; t++) {
      const i = (t * 7919 + 13) % docs.length;
      if (search(docs[i]!, 1)[0] === i) self++;
    }
    const parts = [
      `fit ${fitS.toFixed(1)} s, embed ${embedS.toFixed(1)} s, self@1 ${((100 * self) / 300).toFixed(0)}%`,
    ];
    parts.push(...scoreSets(search));
    console.log(`${label}: ${parts.join(' | ')}`);
  }
}
