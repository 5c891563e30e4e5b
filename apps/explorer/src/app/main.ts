import { type QueryAnswer, health, listStacks, runQuery } from './api-client.ts';
import { byId, h } from './dom.ts';
import { mountEvalBrowser } from './eval-view.ts';
import { showNode } from './node-panel.ts';
import { buildPicture, planPathText } from './path-graph.ts';
import { type DrawnPicture, drawPicture, pictureLegend, viaColours } from './path-picture.ts';
import { resultsColumn } from './results-column.ts';

/** The explorer page: query box and stack picker, ranked columns, the picture, the node panel, eval. */

const form = byId<HTMLFormElement>('query-form');
const queryInput = byId<HTMLInputElement>('query');
const limitInput = byId<HTMLInputElement>('limit');
const stackPicker = byId('stacks');
const columns = byId('columns');
const picturePanel = byId('picture');
const nodePanel = byId('node');
const status = byId('status');

let drawn: DrawnPicture | undefined;
const answers = new Map<string, QueryAnswer>();

function selectedStacks(): string[] {
  return [...stackPicker.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')].map(
    (box) => box.value,
  );
}

function openNode(id: string) {
  void showNode(nodePanel, id);
}

/** Draws how `resultId` was reached in `stack`'s answer. */
function showPicture(stack: string, resultId: string) {
  const answer = answers.get(stack);
  if (!answer) return;
  drawn?.destroy();
  const picture = buildPicture(answer, resultId);
  const plan = answer.explanation?.plan ?? null;
  const labels = answer.explanation?.labels ?? {};
  const result = answer.results.find((r) => r.id === resultId);
  const canvas = h('div', { id: 'graph', class: 'graph' });
  const planLines = plan?.paths.length
    ? h(
        'ol',
        { class: 'plan-paths', start: '0' },
        plan.paths.slice(0, 8).map((_, i) =>
          h(
            'li',
            {
              onmouseenter: () => drawn?.highlightPath(i),
              onmouseleave: () => drawn?.highlightPath(undefined),
            },
            planPathText(plan, i, labels),
          ),
        ),
      )
    : h(
        'p',
        { class: 'muted' },
        plan
          ? 'The plan has no typed paths.'
          : 'This stack has no planner: the whole query searched the text.',
      );
  const anchors = plan?.anchors.length
    ? plan.anchors
        .map(
          (a) =>
            `“${a.mention}” → ${
              a.candidates
                .slice(0, 2)
                .map((c) => labels[c.id]?.name ?? c.id)
                .join(' / ') || 'not linked'
            }`,
        )
        .join('; ')
    : 'none';
  picturePanel.replaceChildren(
    h('h2', {}, `How ${stack} reached ${result?.name ?? resultId}`),
    h(
      'p',
      { class: 'muted' },
      `Anchors: ${anchors}. Target types: ${
        plan?.targetTypes
          .slice(0, 4)
          .map((t) => t.type)
          .join(', ') || 'any'
      }. `,
      `${picture.shown} of ${picture.total} trajectories drawn.`,
    ),
    h('h3', {}, 'Planned paths'),
    planLines,
    h(
      'div',
      { class: 'legend' },
      Object.entries(viaColours).map(([via, colour]) =>
        h('span', {}, h('span', { class: 'swatch', style: `background:${colour}` }), via),
      ),
      h('span', {}, '◆ anchor  ● result (ringed)'),
    ),
    h('div', { class: 'picture-body' }, canvas, pictureLegend(picture, openNode)),
  );
  drawn = drawPicture(canvas, picture, openNode);
  picturePanel.dataset.drawn = `${stack}:${resultId}`;
  openNode(resultId);
}

async function ask(query: string, stacks: readonly string[]) {
  const limit = Number(limitInput.value) || 10;
  status.textContent = `Asking ${stacks.join(', ')}…`;
  columns.replaceChildren();
  answers.clear();
  const settled = await Promise.allSettled(stacks.map((stack) => runQuery(query, stack, limit)));
  settled.forEach((outcome, i) => {
    const stack = stacks[i]!;
    if (outcome.status === 'rejected') {
      columns.append(
        h(
          'section',
          { class: 'column' },
          h('h2', {}, stack),
          h('p', { class: 'error' }, String(outcome.reason?.message ?? outcome.reason)),
        ),
      );
      return;
    }
    answers.set(stack, outcome.value);
    columns.append(
      resultsColumn(outcome.value, (resultId, item) => {
        for (const chosen of document.querySelectorAll('.result.selected'))
          chosen.classList.remove('selected');
        item.classList.add('selected');
        showPicture(stack, resultId);
      }),
    );
  });
  status.textContent = `“${query}”: ${stacks.length} stack${stacks.length === 1 ? '' : 's'} asked. Choose a result to see how it was reached.`;
  // Open the picture of the first top result that a path through the graph reached, if any.
  const walked = (stack: string) => {
    const answer = answers.get(stack);
    const top = answer?.results[0];
    return !!top && (answer?.explanation?.trajectories[top.id] ?? []).some((t) => t.hops.length > 1);
  };
  const first = stacks.find(walked) ?? stacks.find((s) => (answers.get(s)?.results.length ?? 0) > 0);
  if (first) columns.querySelector<HTMLElement>(`.column[data-stack="${first}"] .result`)?.click();
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const stacks = selectedStacks();
  if (queryInput.value.trim() === '' || stacks.length === 0) {
    status.textContent = 'Type a question and pick at least one stack.';
    return;
  }
  void ask(queryInput.value, stacks);
});

async function boot() {
  const [{ default: preferred, stacks }, info] = await Promise.all([listStacks(), health()]);
  byId('store').textContent =
    `${info.store.name} · ${info.store.nodes.toLocaleString()} nodes · ${info.store.edges.toLocaleString()} edges`;
  const initial = new Set([preferred, stacks.some((s) => s.name === 'bm25') ? 'bm25' : preferred]);
  stackPicker.replaceChildren(
    ...stacks.map((s) =>
      h(
        'label',
        { class: 'stack-choice', title: s.description },
        h('input', { type: 'checkbox', value: s.name, checked: initial.has(s.name) }),
        s.name,
      ),
    ),
  );
  mountEvalBrowser(byId('eval'), (query, chosen) => {
    queryInput.value = query;
    for (const box of stackPicker.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
      box.checked = chosen.includes(box.value);
    void ask(
      query,
      chosen.filter((s) => stacks.some((known) => known.name === s)),
    );
    window.scrollTo({ top: 0, behavior: 'smooth' });
  });
  document.body.dataset.ready = 'true';
}

boot().catch((error: unknown) => {
  status.textContent = `The explorer could not start: ${(error as Error).message}`;
});
