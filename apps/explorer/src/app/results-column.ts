import type { QueryAnswer } from './api-client.ts';
import { h, marked, snippet } from './dom.ts';
import { countNoun } from './grammar.ts';

/** One stack's ranking: a column of results with their documents; choosing one calls `onSelect`. */
export function resultsColumn(
  answer: QueryAnswer,
  onSelect: (resultId: string, item: HTMLElement) => void,
): HTMLElement {
  const duration = answer.explanation?.trace.durationMs;
  const warnings = answer.warnings.length
    ? h(
        'details',
        { class: 'warnings' },
        h('summary', {}, countNoun(answer.warnings.length, 'warning')),
        h(
          'ul',
          {},
          answer.warnings.map((w) => h('li', {}, w)),
        ),
      )
    : null;
  return h(
    'section',
    { class: 'column', 'data-stack': answer.stack },
    h(
      'header',
      {},
      h('h2', {}, answer.stack),
      h(
        'span',
        { class: 'muted' },
        `${countNoun(answer.results.length, 'result')}${duration === undefined ? '' : ` · ${duration.toFixed(0)} ms`}`,
      ),
    ),
    warnings,
    answer.results.length === 0 ? h('p', { class: 'muted' }, 'no results') : null,
    h(
      'ol',
      { class: 'results' },
      answer.results.map((r) => {
        const item: HTMLElement = h(
          'li',
          {
            class: 'result',
            tabindex: '0',
            'data-id': r.id,
            onclick: () => onSelect(r.id, item),
            onkeydown: (event: Event) => {
              if ((event as KeyboardEvent).key === 'Enter') onSelect(r.id, item);
            },
          },
          h(
            'div',
            { class: 'result-head' },
            h('span', { class: 'rank' }, String(r.rank)),
            h('strong', {}, ...marked(r.name ?? r.id, answer.query)),
            h('span', { class: 'muted' }, ` ${r.type ?? '?'} · ${r.score.toFixed(3)}`),
          ),
          r.text
            ? h('p', { class: 'document', title: r.text }, ...marked(snippet(r.text), answer.query))
            : null,
        );
        return item;
      }),
    ),
  );
}
