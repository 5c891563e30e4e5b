import { getNode, type NodeDetails } from './api-client.ts';
import { h } from './dom.ts';
import { edgeText } from './path-graph.ts';

/**
 * Shows a node in `panel`: its name, type, aliases, document, and neighbours grouped by edge type and
 * direction; a neighbour opens in its place.
 */
export async function showNode(panel: HTMLElement, id: string): Promise<void> {
  panel.replaceChildren(h('p', { class: 'muted' }, `Loading ${id}…`));
  let details: NodeDetails;
  try {
    details = await getNode(id);
  } catch (error) {
    panel.replaceChildren(h('p', { class: 'error' }, (error as Error).message));
    return;
  }
  const open = (next: string) => () => void showNode(panel, next);
  const { node } = details;
  panel.replaceChildren(
    ...present(
      h('h3', {}, node.name),
      h('p', { class: 'muted' }, `${node.type} · ${node.id}`),
      node.aliases?.length ? h('p', { class: 'muted' }, `also: ${node.aliases.join(', ')}`) : null,
      h('p', { class: 'document' }, details.document || '(no document)'),
      details.neighbours.length === 0 ? h('p', { class: 'muted' }, 'no neighbours') : null,
      ...details.neighbours.map((group) =>
        h(
          'details',
          { open: true, class: 'neighbours' },
          h(
            'summary',
            {},
            `${edgeText(group.edgeType, group.direction)} (${group.nodes.length}${group.truncated ? '+' : ''})`,
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
