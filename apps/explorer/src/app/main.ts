import {
  askStream,
  health,
  listStacks,
  onApiKeyNeeded,
  type QueryAnswer,
  runQuery,
  searchNodes,
} from './api-client.ts';
import { byId, h } from './dom.ts';
import { countNoun } from './grammar.ts';
import { mountEvalBrowser } from './eval-view.ts';
import { showNode } from './node-panel.ts';
import { buildPicture, planPathText } from './path-graph.ts';
import {
  type DrawnPicture,
  drawPicture,
  type LayoutName,
  layouts,
  type NeighbourGroup,
  pictureLegend,
  unusedAnchorsList,
  viaColours,
} from './path-picture.ts';
import { resultsColumn } from './results-column.ts';
import { citationPieces } from './sse.ts';

/** The explorer page: query box and stack picker, ranked columns, the picture, the node panel, eval. */

const form = byId<HTMLFormElement>('query-form');
const queryInput = byId<HTMLInputElement>('query');
const limitInput = byId<HTMLInputElement>('limit');
const stackPicker = byId('stacks');
const columns = byId('columns');
const picturePanel = byId('picture');
const nodePanel = byId('node');
const status = byId('status');

const answerPanel = byId('answer');
const backButton = byId<HTMLButtonElement>('back');
const forwardButton = byId<HTMLButtonElement>('forward');

// A server started with API keys: the page asks for one once (requests waiting on it share the
// prompt), keeps it for the tab, and every request sends it (api-client).
const keyForm = byId<HTMLFormElement>('key-form');
const keyInput = byId<HTMLInputElement>('api-key');
let keyPrompt: Promise<string | undefined> | undefined;
onApiKeyNeeded((reason) => {
  keyPrompt ??= new Promise<string | undefined>((resolve) => {
    byId('key-reason').textContent = reason;
    keyInput.value = '';
    keyForm.hidden = false;
    keyInput.focus();
    const done = (key: string | undefined) => {
      keyForm.hidden = true;
      keyForm.removeEventListener('submit', submit);
      byId('key-cancel').removeEventListener('click', cancel);
      keyPrompt = undefined;
      resolve(key);
    };
    const submit = (event: Event) => {
      event.preventDefault();
      done(keyInput.value.trim() || undefined);
    };
    const cancel = () => done(undefined);
    keyForm.addEventListener('submit', submit);
    byId('key-cancel').addEventListener('click', cancel);
  });
  return keyPrompt;
});

let drawn: DrawnPicture | undefined;
/** The stack whose result is open in the picture: the answer panel answers from its evidence. */
let viewedStack: string | undefined;
const answers = new Map<string, QueryAnswer>();
/** The question of the columns on screen ('' before the first). */
let currentQuery = '';

/** What one entry of the explorer's history shows: a query on some stacks, and maybe one result's picture. */
interface View {
  readonly query: string;
  readonly stacks: readonly string[];
  readonly open?: { readonly stack: string; readonly resultId: string };
}

/** The view as the address's fragment (#q=…&s=a,b&r=stack:id): a link opens it again. */
function viewHash(view: View): string {
  const params = new URLSearchParams({ q: view.query, s: view.stacks.join(',') });
  if (view.open) params.set('r', `${view.open.stack}:${view.open.resultId}`);
  return `#${params.toString()}`;
}

function parseHash(hash: string): View | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const query = params.get('q');
  const stacks = params.get('s')?.split(',').filter(Boolean) ?? [];
  if (!query || stacks.length === 0) return undefined;
  const r = params.get('r');
  const cut = r ? r.indexOf(':') : -1;
  return {
    query,
    stacks,
    ...(r && cut > 0 ? { open: { stack: r.slice(0, cut), resultId: r.slice(cut + 1) } } : {}),
  };
}

let historyIndex = 0;
let historyLength = 0;
function remember(view: View, replace = false) {
  if (replace) history.replaceState({ view, index: historyIndex }, '', viewHash(view));
  else {
    historyIndex++;
    historyLength = historyIndex + 1;
    history.pushState({ view, index: historyIndex }, '', viewHash(view));
  }
  updateHistoryButtons();
}
function updateHistoryButtons() {
  backButton.disabled = historyIndex <= 0;
  forwardButton.disabled = historyIndex >= historyLength - 1;
}

function selectedStacks(): string[] {
  return [...stackPicker.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')].map(
    (box) => box.value,
  );
}

function openNode(id: string) {
  void showNode(nodePanel, id, { query: currentQuery, onExpand: expandNode });
}

/** Draws a neighbour group of a node into the canvas, starting an exploration canvas when none is drawn. */
function expandNode(center: { id: string; label: string; type: string }, group: NeighbourGroup) {
  if (!drawn) startExploration(center);
  const added = drawn!.expand(center, group);
  status.textContent = `Drew ${countNoun(added, 'new neighbour')} of ${center.label} over ${group.edgeType}.`;
}

/** The layout picker and the fit button above a canvas. */
function toolbar(): HTMLElement {
  const picker = h(
    'select',
    {
      'aria-label': 'layout',
      onchange: (event: Event) => drawn?.layout((event.target as HTMLSelectElement).value as LayoutName),
    },
    layouts.map((name) => h('option', { value: name }, name === 'paths' ? 'paths (columns)' : name)),
  );
  return h(
    'div',
    { class: 'toolbar' },
    h('button', { type: 'button', class: 'ghost', id: 'fit', onclick: () => drawn?.fit() }, 'Fit to view'),
    h('label', { class: 'muted' }, 'layout ', picker),
    h('span', { class: 'muted' }, 'Open a node, then “+ draw” beside an edge type to expand it here.'),
  );
}

/** A canvas that starts from one node (a node search, or expanding with nothing drawn). */
function startExploration(node: { id: string; label: string; type: string }) {
  drawn?.destroy();
  const canvas = h('div', { id: 'graph', class: 'graph' });
  picturePanel.replaceChildren(h('h2', {}, `Exploring from ${node.label}`), toolbar(), canvas);
  picturePanel.dataset.drawn = `explore:${node.id}`;
  drawn = drawPicture(
    canvas,
    {
      nodes: [
        { id: node.id, label: node.label, type: node.type, role: 'result', via: 'text', column: 0, row: 0 },
      ],
      edges: [],
      unusedAnchors: [],
      shown: 0,
      total: 0,
    },
    openNode,
  );
}

/** Draws how `resultId` was reached in `stack`'s answer. */
function showPicture(stack: string, resultId: string, record = true) {
  const answer = answers.get(stack);
  if (!answer) return;
  if (record) remember({ query: answer.query, stacks: [...answers.keys()], open: { stack, resultId } });
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
    toolbar(),
    h('div', { class: 'picture-body' }, canvas, pictureLegend(picture, openNode, answer.query)),
    unusedAnchorsList(picture, openNode),
  );
  drawn = drawPicture(canvas, picture, openNode);
  picturePanel.dataset.drawn = `${stack}:${resultId}`;
  viewedStack = stack;
  openNode(resultId);
}

const picturePlaceholder = () =>
  h('p', { class: 'muted' }, 'The picture of how a result was reached appears here.');
const nodePlaceholder = () => h('p', { class: 'muted' }, 'Choose a node to see its document and neighbours.');

let second: DrawnPicture | undefined;

/**
 * The eval browser's view of one query: each stack's picture side by side — of the gold answer where
 * the stack ranked it, else of its top result — so that a win or a loss shows where the paths differ.
 */
function showSideBySide(query: string, stacks: readonly string[], gold: readonly string[]) {
  clearDetail();
  const panes = stacks.map((stack) => {
    const answer = answers.get(stack);
    const hit = answer?.results.find((r) => gold.includes(r.id));
    const target = hit ?? answer?.results[0];
    const canvas = h('div', { class: 'graph', 'data-pane': stack });
    const heading = !answer
      ? `${stack}: no answer`
      : hit
        ? `${stack}: gold “${hit.name ?? hit.id}” at rank ${hit.rank}`
        : `${stack}: no gold answer in its top ${answer.results.length}${target ? `; its top result “${target.name ?? target.id}”` : ''}`;
    return { stack, answer, target, canvas, pane: h('div', { class: 'pane' }, h('h3', {}, heading), canvas) };
  });
  picturePanel.replaceChildren(
    h('h2', {}, `“${query}”: ${stacks.join(' and ')} side by side`),
    h('div', { class: 'side-by-side' }, ...panes.map((p) => p.pane)),
  );
  picturePanel.dataset.drawn = `compare:${stacks.join('|')}`;
  const drawnPanes = panes.map((p) =>
    p.answer && p.target ? drawPicture(p.canvas, buildPicture(p.answer, p.target.id), openNode) : undefined,
  );
  drawn = drawnPanes[0];
  second = drawnPanes[1];
}

/** Forgets the previous query's picture and node: nothing of it may stay beside a new answer. */
function clearDetail() {
  drawn?.destroy();
  drawn = undefined;
  second?.destroy();
  second = undefined;
  picturePanel.replaceChildren(picturePlaceholder());
  delete picturePanel.dataset.drawn;
  viewedStack = undefined;
  nodePanel.replaceChildren(nodePlaceholder());
}

async function ask(query: string, stacks: readonly string[], record = true) {
  const limit = Number(limitInput.value) || 10;
  currentQuery = query;
  queryInput.value = query;
  if (record) remember({ query, stacks });
  status.textContent = `Asking ${stacks.join(', ')}…`;
  status.classList.remove('error');
  columns.replaceChildren();
  answers.clear();
  clearDetail();
  asking?.abort();
  answerPanel.hidden = true;
  answerPanel.replaceChildren();
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

/** Opens a view of the history (back, forward, or a link): its query, and its picture if it had one. */
async function restore(view: View) {
  for (const box of stackPicker.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
    box.checked = view.stacks.includes(box.value);
  const sameColumns =
    view.query === currentQuery &&
    view.stacks.length === answers.size &&
    view.stacks.every((s) => answers.has(s));
  if (!sameColumns) await ask(view.query, view.stacks, false);
  if (view.open) {
    const item = columns.querySelector<HTMLElement>(
      `.column[data-stack="${CSS.escape(view.open.stack)}"] .result[data-id="${CSS.escape(view.open.resultId)}"]`,
    );
    for (const chosen of document.querySelectorAll('.result.selected')) chosen.classList.remove('selected');
    item?.classList.add('selected');
    showPicture(view.open.stack, view.open.resultId, false);
  } else clearDetail();
}

window.addEventListener('popstate', (event) => {
  const state = event.state as { view?: View; index?: number } | null;
  const view = state?.view ?? parseHash(location.hash);
  historyIndex = state?.index ?? 0;
  updateHistoryButtons();
  if (view) void restore(view);
});
backButton.addEventListener('click', () => history.back());
forwardButton.addEventListener('click', () => history.forward());

// Node search: a name or alias, exact matches first; a match opens in the node panel.
const nodeMatches = byId('node-matches');
byId<HTMLFormElement>('node-search').addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = byId<HTMLInputElement>('node-name').value.trim();
  if (!name) return;
  nodeMatches.hidden = false;
  nodeMatches.replaceChildren(h('li', { class: 'muted' }, `Looking for “${name}”…`));
  try {
    const matches = await searchNodes(name);
    nodeMatches.replaceChildren(
      h(
        'li',
        { class: 'muted' },
        matches.length ? `Nodes named like “${name}”:` : `No node is named like “${name}”.`,
      ),
      ...matches.map((m) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              'data-node': m.id,
              onclick: () => {
                openNode(m.id);
                if (!drawn?.has(m.id)) startExploration({ id: m.id, label: m.name, type: m.type });
                else drawn.focus(m.id);
              },
            },
            m.name,
          ),
          ` ${m.type}${m.matched !== m.name ? ` (as “${m.matched}”)` : ''}`,
        ),
      ),
    );
  } catch (error) {
    nodeMatches.replaceChildren(h('li', { class: 'error' }, (error as Error).message));
  }
});

// The answer panel: POST /ask streamed, its citations linked to the nodes of the picture.
let asking: AbortController | undefined;
byId('ask-button').addEventListener('click', async () => {
  const question = queryInput.value.trim();
  // The stack being viewed (its result open in the picture), else the first column shown, else the
  // first ticked: never silently another stack than the one on screen.
  const stack = viewedStack ?? [...answers.keys()][0] ?? selectedStacks()[0];
  if (!question || !stack) {
    status.textContent = 'Type a question and pick a stack for the answer.';
    return;
  }
  asking?.abort();
  const controller = new AbortController();
  asking = controller;
  const text = h('p', { class: 'text' });
  const verdict = h('p', { class: 'verdict muted' }, `Asking ${stack} for the evidence…`);
  answerPanel.hidden = false;
  delete answerPanel.dataset.status;
  answerPanel.replaceChildren(h('h2', {}, `Answer from ${stack}’s evidence`), text, verdict);
  let written = '';
  let evidenceNodes: { id: string; name?: string; type?: string }[] = [];
  try {
    await askStream(
      question,
      stack,
      (event) => {
        const data = JSON.parse(event.data) as Record<string, unknown>;
        if (event.event === 'evidence') {
          evidenceNodes =
            (data.evidence as { nodes?: { id: string; name?: string; type?: string }[] } | undefined)
              ?.nodes ?? [];
          verdict.textContent = `The answer rests on ${countNoun(evidenceNodes.length, 'evidence node')}; writing…`;
        } else if (event.event === 'delta') {
          written += String(data.text ?? '');
          text.textContent = written;
        } else if (event.event === 'done') {
          const done = data as {
            status: string;
            answer: string;
            citations: { id: string; valid: boolean }[];
            error?: string;
            note?: string;
          };
          const valid = new Set(done.citations.filter((c) => c.valid).map((c) => c.id));
          text.replaceChildren(
            ...citationPieces(done.answer).map((piece) =>
              'text' in piece
                ? piece.text
                : h(
                    'span',
                    { class: 'citation' },
                    '[',
                    ...piece.ids.flatMap((id, i) => [
                      i > 0 ? ', ' : '',
                      h(
                        'button',
                        {
                          type: 'button',
                          class: `link citation${valid.has(id) ? '' : ' invalid'}`,
                          'data-cite': id,
                          title: valid.has(id) ? 'show this node' : 'not in the evidence',
                          onclick: () => {
                            drawn?.focus(id);
                            openNode(id);
                          },
                        },
                        id,
                      ),
                    ]),
                    ']',
                  ),
            ),
          );
          answerPanel.dataset.status = done.status;
          verdict.className = `verdict ${done.status === 'answered' ? 'muted' : 'warn'}`;
          verdict.textContent =
            done.status === 'answered'
              ? `Cites ${valid.size} node${valid.size === 1 ? '' : 's'} of the evidence.`
              : done.status === 'ungrounded'
                ? 'No grounded answer: the reply cites no node of the evidence.'
                : done.status === 'no-model'
                  ? 'No model on the server (weft serve --model SPEC): below is the evidence an answer would rest on.'
                  : `The answer ${done.status}${done.error ? `: ${done.error}` : ''}.`;
          // No words from a model (none on the server, or it failed): what was gathered still shows.
          if (done.status !== 'answered' && evidenceNodes.length > 0)
            answerPanel.append(
              h('h3', {}, `The evidence (${countNoun(evidenceNodes.length, 'node')})`),
              h(
                'ol',
                { class: 'evidence' },
                evidenceNodes.map((node) =>
                  h(
                    'li',
                    { 'data-evidence': node.id },
                    h(
                      'button',
                      {
                        type: 'button',
                        class: 'link',
                        onclick: () => {
                          drawn?.focus(node.id);
                          openNode(node.id);
                        },
                      },
                      node.name ?? node.id,
                    ),
                    node.type ? ` ${node.type}` : '',
                  ),
                ),
              ),
            );
        }
      },
      controller.signal,
    );
  } catch (error) {
    if (controller.signal.aborted) return;
    answerPanel.dataset.status = 'error';
    verdict.className = 'verdict error';
    verdict.textContent = (error as Error).message;
  }
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
  mountEvalBrowser(byId('eval'), async (query, chosen, gold) => {
    queryInput.value = query;
    for (const box of stackPicker.querySelectorAll<HTMLInputElement>('input[type=checkbox]'))
      box.checked = chosen.includes(box.value);
    window.scrollTo({ top: 0, behavior: 'smooth' });
    const known = chosen.filter((s) => stacks.some((k) => k.name === s));
    await ask(query, known);
    if (known.length === 2) showSideBySide(query, known, gold);
  });
  const linked = parseHash(location.hash);
  history.replaceState(
    linked ? { view: linked, index: 0 } : { index: 0 },
    '',
    location.hash || location.pathname,
  );
  historyIndex = 0;
  historyLength = 1;
  updateHistoryButtons();
  if (linked) await restore(linked);
  document.body.dataset.ready = 'true';
}

boot().catch((error: unknown) => {
  status.textContent = `The explorer could not start: ${(error as Error).message}`;
});
