// Fits @weft/grounding's two logistic models (named: the phrase spells the node's name; described:
// it matches its document) on feature rows written by grounding-dev.ts (train splits only), each set
// weighing as much as the others, unbalanced labels so that the output is a probability; prints the
// weights in the raw feature scale, ready for grounding-weights.ts.
//   ./dev node --conditions=@weft/source devkit/results/src/fit-grounding-weights.ts rows-a.jsonl rows-b.jsonl …
import { readFileSync } from 'node:fs';
import { fitLogistic } from '@weft/kit';
import { groundingFeatures } from '@weft/grounding';

const features = groundingFeatures.filter((f) => f !== 'bias');
const sets = process.argv.slice(2).map((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { y: 0 | 1; f: Record<string, number> }),
);
function fit(reading: 'named' | 'described'): Record<string, number> {
  const rows = sets.flatMap((all) => {
    const mine = all.filter((r) => r.f.nameWhole! > 0 === (reading === 'named'));
    return mine.map((r) => ({ x: features.map((f) => r.f[f] ?? 0), y: r.y, weight: 1000 / all.length }));
  });
  const model = fitLogistic(features, rows, {
    l2: Number(process.env.L2 ?? 0.01),
    epochs: 2000,
    balanced: false,
  });
  const raw: Record<string, number> = {};
  let bias = model.bias;
  features.forEach((f, i) => {
    raw[f] = Number((model.weights[i]! / model.scale[i]!).toFixed(3));
    bias -= (model.weights[i]! * model.mean[i]!) / model.scale[i]!;
  });
  raw.bias = Number(bias.toFixed(3));
  return raw;
}
console.log(JSON.stringify({ named: fit('named'), described: fit('described') }, null, 2));
