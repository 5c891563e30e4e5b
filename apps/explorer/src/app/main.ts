import { type QueryAnswer, health, listStacks, runQuery } from './api-client.ts';
import { byId, h } from './dom.ts';
import { mountEvalBrowser } from './eval-view.ts';
import { showNode } from './node-panel.ts';
import { buildPicture, planPathText } from './path-graph.ts';
import {
  type DrawnPicture,
  drawPicture,
  pictureLegend,
  unusedAnchorsList,
  viaColours,
} from './path-picture.ts';
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
    picture.edges.length === 0
      ? h('p', { class: 'muted' }, 'Found by its text alone: no path through the graph reached it.')
      : '',
    h('div', { class: 'picture-body' }, canvas, pictureLegend(picture, openNode)),
    unusedAnchorsList(picture, openNode),
  );
  drawn = drawPicture(canvas, picture, openNode);
  picturePanel.dataset.drawn = `${stack}:${resultId}`;
  openNode(resultId);
}

const picturePlaceholder = () =>
  h('p', { class: 'muted' }, 'The picture of how a result was reached appears here.');
const nodePlaceholder = () => h('p', { class: 'muted' }, 'Choose a node to see its document and neighbours.');

/** Forgets the previous query's picture and node: nothing of it may stay beside a new answer. */
function clearDetail() {
  drawn?.destroy();
  drawn = undefined;
  picturePanel.replaceChildren(picturePlaceholder());
  delete picturePanel.dataset.drawn;
  nodePanel.replaceChildren(nodePlaceholder());
}

async function ask(query: string, stacks: readonly string[]) {
  const limit = Number(limitInput.value) || 10;
  status.textContent = `Asking ${stacks.join(', ')}…`;
  status.classList.remove('error');
  columns.replaceChildren();
  answers.clear();
  clearDetail();
  const settled = await Promise.allSettled(stacks.map((stack) => runQuery(query, stack, limit)));
  const failures: string[] = [];
  settled.forEach((outcome, i) => {
    const stack = stacks[i]!;
    if (outcome.status === 'rejected') {
      const message = String(outcome.reason?.message ?? outcome.reason);
      failures.push(`${stack}: ${message}`);
      columns.append(
        h(
          'section',
          { class: 'column', 'data-stack': stack },
          h('h2', {}, stack),
          h('p', { class: 'error' }, message),
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
  if (failures.length === stacks.length) {
    status.textContent = `“${query}” failed: ${failures.join('; ')}`;
    status.classList.add('error');
    return;
  }
  // No result is opened for you: the top one may well be wrong, and the picture would look like an answer.
  status.textContent = `“${query}”: ${stacks.length} stack${stacks.length === 1 ? '' : 's'} asked${
    failures.length ? ` (${failures.length} failed)` : ''
  }. Choose a result to see how it was reached.`;
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
