import { formatPercent } from '@weft/eval/format-percent';
import { h } from './dom.ts';
import {
  type Comparison,
  compareRecords,
  type EvalRecord,
  filterLabels,
  parseRecords,
  recordStacks,
} from './eval-records.ts';

/** A mean of per-query fractions in percent, rounded as `weft eval` rounds it (one function). */
const percent = (value: number) => formatPercent(100 * value);
const rankText = (rank: number | undefined) => (rank === undefined ? '—' : String(rank));

/**
 * The eval browser: a records.jsonl of `weft eval --out` read from a file input, two of its stacks
 * compared query by query (B against A: wins, losses, ties by MRR). Choosing a query calls `onQuery`
 * with its text, the two stacks and its gold answers, to run it live and draw the two pictures side by side.
 */
export function mountEvalBrowser(
  root: HTMLElement,
  onQuery: (query: string, stacks: readonly string[], gold: readonly string[]) => void,
): void {
  let records: EvalRecord[] = [];
  let filter: 'all' | 'win' | 'loss' | 'tie' = 'all';
  const status = h('p', { class: 'muted' }, 'Load the records.jsonl that weft eval --out wrote.');
  const pickA = h('select', { 'aria-label': 'stack A' });
  const pickB = h('select', { 'aria-label': 'stack B' });
  const filterPick = h(
    'select',
    { 'aria-label': 'show' },
    ...(['all', 'win', 'loss', 'tie'] as const).map((f) => h('option', { value: f }, filterLabels[f])),
  );
  const output = h('div', {});
  const file = h('input', {
    type: 'file',
    accept: '.jsonl,.json,application/json',
    'aria-label': 'records.jsonl',
  });

  const render = () => {
    if (records.length === 0) return;
    const comparison = compareRecords(records, pickA.value, pickB.value);
    output.replaceChildren(summary(comparison), table(comparison, filter, onQuery));
  };
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    const parsed = parseRecords(await chosen.text());
    records = parsed.records;
    const stacks = recordStacks(records);
    status.textContent = `${chosen.name}: ${records.length} records, stacks ${stacks.join(', ')}${parsed.problems.length ? `; skipped ${parsed.problems.length} lines (${parsed.problems[0]})` : ''}`;
    for (const [pick, index] of [
      [pickA, 0],
      [pickB, 1],
    ] as const) {
      pick.replaceChildren(...stacks.map((s) => h('option', { value: s }, s)));
      pick.value = stacks[Math.min(index, stacks.length - 1)] ?? '';
    }
    render();
  });
  pickA.addEventListener('change', render);
  pickB.addEventListener('change', render);
  filterPick.addEventListener('change', () => {
    filter = filterPick.value as typeof filter;
    render();
  });
  root.replaceChildren(
    h('h2', {}, 'Evaluation records'),
    h(
      'div',
      { class: 'eval-controls' },
      file,
      h('label', {}, 'A ', pickA),
      h('label', {}, 'B ', pickB),
      filterPick,
    ),
    status,
    output,
  );
}

function summary(c: Comparison): HTMLElement {
  return h(
    'p',
    { class: 'eval-summary' },
    `${c.queries.length} queries: ${c.b} wins ${c.wins}, loses ${c.losses}, ties ${c.ties} against ${c.a}. `,
    `MRR ${percent(c.meanMrr.a)} → ${percent(c.meanMrr.b)}, Hit@1 ${percent(c.hit1.a)} → ${percent(c.hit1.b)}.`,
  );
}

function table(
  c: Comparison,
  filter: 'all' | 'win' | 'loss' | 'tie',
  onQuery: (query: string, stacks: readonly string[], gold: readonly string[]) => void,
): HTMLElement {
  const rows = c.queries.filter((q) => filter === 'all' || q.outcome === filter);
  return h(
    'table',
    { class: 'eval-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'query'),
        h('th', {}, `rank in ${c.a}`),
        h('th', {}, `rank in ${c.b}`),
        h('th', {}, 'Δ MRR'),
        h('th', {}, ''),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((q) =>
        h(
          'tr',
          { class: q.outcome },
          h('td', { title: `gold: ${q.gold.join(', ')}` }, q.query),
          h('td', {}, rankText(q.rankA)),
          h('td', {}, rankText(q.rankB)),
          h('td', {}, `${q.delta > 0 ? '+' : ''}${q.delta.toFixed(2)}`),
          h(
            'td',
            {},
            h(
              'button',
              { type: 'button', class: 'link', onclick: () => onQuery(q.query, [c.a, c.b], q.gold) },
              'run, side by side',
            ),
          ),
        ),
      ),
    ),
  );
}
