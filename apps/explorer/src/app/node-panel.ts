import { getNode, type NodeDetails } from './api-client.ts';
import { h, marked } from './dom.ts';
import { edgeText } from './path-graph.ts';
import type { NeighbourGroup } from './path-picture.ts';

export interface ShowNodeOptions {
  /** The question, whose words are marked in the document. */
  readonly query?: string;
  /** Draws one neighbour group into the canvas (the "draw" button beside each group). */
  readonly onExpand?: (center: { id: string; label: string; type: string }, group: NeighbourGroup) => void;
}

/**
 * Shows a node in `panel`: its name, type, aliases, document, and neighbours grouped by edge type and
 * direction; a neighbour opens in its place.
 */
export async function showNode(panel: HTMLElement, id: string, options: ShowNodeOptions = {}): Promise<void> {
  panel.replaceChildren(h('p', { class: 'muted' }, `Loading ${id}…`));
  let details: NodeDetails;
  try {
    details = await getNode(id);
  } catch (error) {
    panel.replaceChildren(h('p', { class: 'error' }, (error as Error).message));
    return;
  }
  const open = (next: string) => () => void showNode(panel, next, options);
  const { node } = details;
  panel.replaceChildren(
    ...present(
      h('h3', {}, node.name),
      h('p', { class: 'muted' }, `${node.type} · ${node.id}`),
      node.aliases?.length ? h('p', { class: 'muted' }, `also: ${node.aliases.join(', ')}`) : null,
      h(
        'p',
        { class: 'document' },
        ...(details.document ? marked(details.document, options.query ?? '') : ['(no document)']),
      ),
      details.neighbours.length === 0 ? h('p', { class: 'muted' }, 'no neighbours') : null,
      ...details.neighbours.map((group) =>
        h(
          'details',
          { open: true, class: 'neighbours' },
          h(
            'summary',
            {},
            `${edgeText(group.edgeType, group.direction)} (${group.nodes.length}${group.truncated ? '+' : ''})`,
            options.onExpand
              ? h(
                  'button',
                  {
                    type: 'button',
                    class: 'link expand',
                    'data-edge': `${group.edgeType}:${group.direction}`,
                    title: `draw these ${group.nodes.length}${group.truncated ? '+' : ''} neighbours into the picture`,
                    onclick: (event: Event) => {
                      event.preventDefault();
                      options.onExpand?.({ id: node.id, label: node.name, type: node.type }, group);
                    },
                  },
                  ' + draw',
                )
              : null,
          ),
          h(
            'ul',
            {},
            group.nodes.map((n) =>
              h(
                'li',
                {},
                h('button', { type: 'button', class: 'link', onclick: open(n.id) }, n.name ?? n.id),
                ` ${n.type}`,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

const present = (...items: readonly (HTMLElement | null)[]): HTMLElement[] =>
  items.filter((item): item is HTMLElement => item !== null);
