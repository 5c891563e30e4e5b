import cytoscape from 'cytoscape';
import { h, marked } from './dom.ts';
import type { Picture } from './path-graph.ts';

/** One colour per way a hop was reached, shared by the graph and its legend. */
export const viaColours: Readonly<Record<string, string>> = {
  anchor: '#d9480f',
  structure: '#1971c2',
  text: '#2b8a3e',
  vector: '#862e9c',
};

const columnWidth = 230;
const rowHeight = 96;
/** Below this zoom the labels are too small to read: the view stays at it, on the result (pan for the rest). */
export const minReadableZoom = 0.75;

/** A neighbour group of `GET /nodes/{id}`: the edges of one type and direction, and their other ends. */
export interface NeighbourGroup {
  readonly edgeType: string;
  readonly direction: 'in' | 'out';
  readonly nodes: readonly { readonly id: string; readonly type: string; readonly name: string | null }[];
}

/** Layouts people may choose: the paths in columns (as drawn), or Cytoscape's own. */
export const layouts = ['paths', 'force', 'circle', 'grid', 'tree'] as const;
export type LayoutName = (typeof layouts)[number];

export interface DrawnPicture {
  /** Emphasises the hops of the trajectories of one plan path (undefined: none). */
  highlightPath(path: number | undefined): void;
  /**
   * Draws the neighbours of `center` over one edge type and direction around it (edges as stored);
   * returns how many nodes were new. `center` is added first when it is not drawn yet.
   */
  expand(center: { id: string; label: string; type: string }, group: NeighbourGroup): number;
  /** Selects and centres a node (e.g. a citation of an answer); false when it is not drawn. */
  focus(id: string): boolean;
  has(id: string): boolean;
  /** Every node in view. */
  fit(): void;
  layout(name: LayoutName): void;
  destroy(): void;
}

/**
 * Draws a picture with Cytoscape.js: nodes at fixed columns (hops from a start, the result last),
 * coloured by how they were reached; edges in the order they were walked, labelled with the edge
 * type, its stored direction and how the hop was reached. A tap on a node calls `onNode`.
 */
export function drawPicture(
  container: HTMLElement,
  picture: Picture,
  onNode: (id: string) => void,
): DrawnPicture {
  const cy = cytoscape({
    container,
    elements: [
      ...picture.nodes.map((n) => ({
        group: 'nodes' as const,
        data: {
          id: n.id,
          label: n.role === 'anchor' && n.mention ? `${n.label}\n“${n.mention}”` : `${n.label}\n(${n.type})`,
          colour: viaColours[n.via] ?? '#495057',
        },
        classes: n.role,
        position: { x: n.column * columnWidth, y: n.row * rowHeight },
      })),
      ...picture.edges.map((e) => ({
        group: 'edges' as const,
        data: {
          id: e.id,
          source: e.source,
          target: e.target,
          label: e.label,
          edgeType: e.edgeType,
          colour: viaColours[e.via] ?? '#495057',
          width: Math.min(6, 1.5 + e.weight),
          paths: e.paths.join(' '),
        },
      })),
    ],
    layout: { name: 'preset', padding: 40 },
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(label)',
          'text-wrap': 'wrap',
          'text-max-width': '170px',
          'text-valign': 'bottom',
          'text-margin-y': 6,
          'font-size': 12,
          color: '#212529',
          'background-color': 'data(colour)',
          width: 26,
          height: 26,
        },
      },
      { selector: 'node.anchor', style: { shape: 'diamond', width: 32, height: 32 } },
      {
        selector: 'node.result',
        style: { 'border-width': 4, 'border-color': '#212529', width: 38, height: 38, 'font-weight': 'bold' },
      },
      { selector: 'node.expanded', style: { 'background-color': '#868e96' } },
      { selector: 'node:selected', style: { 'overlay-color': '#fab005', 'overlay-opacity': 0.35 } },
      {
        selector: 'edge',
        style: {
          label: 'data(label)',
          'font-size': 10,
          color: '#343a40',
          'text-background-color': '#ffffff',
          'text-background-opacity': 0.85,
          'text-background-padding': '2px',
          'text-rotation': 'autorotate',
          'curve-style': 'bezier',
          'target-arrow-shape': 'triangle',
          'line-color': 'data(colour)',
          'target-arrow-color': 'data(colour)',
          width: 'data(width)',
        },
      },
      { selector: '.faded', style: { opacity: 0.18 } },
    ],
  });
  cy.on('tap', 'node', (event) => onNode(event.target.id()));
  const fit = () => {
    cy.fit(undefined, 40);
    if (cy.zoom() > 1.4) {
      cy.zoom(1.4);
      cy.center();
    } else if (cy.zoom() < minReadableZoom) {
      cy.zoom(minReadableZoom);
      cy.center(cy.nodes('.result'));
    }
  };
  fit();
  // What is drawn, for people's tools and the browser test: each edge as stored, source>target:type.
  const describe = () => {
    container.dataset.zoom = cy.zoom().toFixed(2);
    container.dataset.nodes = String(cy.nodes().length);
    container.dataset.edges = cy
      .edges()
      .map((e) => `${e.data('source')}>${e.data('target')}:${e.data('edgeType')}`)
      .join(' ');
  };
  const preset = new Map(cy.nodes().map((n) => [n.id(), { ...n.position() }]));
  let added = 0;
  describe();
  const drawn: DrawnPicture = {
    highlightPath(path) {
      cy.elements().removeClass('faded');
      if (path === undefined) return;
      const taken = cy.edges().filter((edge) => String(edge.data('paths')).split(' ').includes(String(path)));
      cy.elements().not(taken.union(taken.connectedNodes())).addClass('faded');
    },
    expand(center, group) {
      if (cy.$id(center.id).empty())
        cy.add({
          group: 'nodes',
          data: { id: center.id, label: `${center.label}\n(${center.type})`, colour: '#495057' },
          position: { x: 0, y: 0 },
        });
      const middle = cy.$id(center.id).position();
      const fresh = group.nodes.filter((n) => cy.$id(n.id).empty());
      fresh.forEach((n, i) => {
        const angle = (2 * Math.PI * i) / Math.max(1, fresh.length) - Math.PI / 2;
        const radius = 150 + 12 * fresh.length;
        cy.add({
          group: 'nodes',
          data: { id: n.id, label: `${n.name ?? n.id}\n(${n.type})`, colour: '#868e96' },
          classes: 'expanded',
          position: { x: middle.x + radius * Math.cos(angle), y: middle.y + radius * Math.sin(angle) },
        });
      });
      for (const n of group.nodes) {
        const [source, target] = group.direction === 'out' ? [center.id, n.id] : [n.id, center.id];
        const id = `x:${source}>${target}:${group.edgeType}`;
        // The edge may be drawn already, by the picture's paths (under another id) or an earlier draw.
        const drawnAlready = cy
          .edges()
          .some(
            (e) =>
              e.data('source') === source &&
              e.data('target') === target &&
              e.data('edgeType') === group.edgeType,
          );
        if (drawnAlready) continue;
        cy.add({
          group: 'edges',
          data: {
            id,
            source,
            target,
            edgeType: group.edgeType,
            label: group.edgeType,
            colour: '#868e96',
            width: 1.5,
            paths: '',
          },
        });
      }
      added += fresh.length;
      container.dataset.expanded = String(added);
      // Refit now (an animation would settle after this returns): the whole drawing when it stays
      // readable, else the expanded node and its neighbours.
      cy.fit(undefined, 40);
      if (cy.zoom() < minReadableZoom) {
        cy.fit(cy.$id(center.id).closedNeighborhood(), 40);
        if (cy.zoom() < minReadableZoom) cy.zoom(minReadableZoom);
      }
      if (cy.zoom() > 1.4) {
        cy.zoom(1.4);
        cy.center(cy.$id(center.id).closedNeighborhood());
      }
      // How many of the group's nodes lie outside the view (0 when the refit shows them all).
      const view = cy.extent();
      container.dataset.unseen = String(
        group.nodes.filter((n) => {
          const p = cy.$id(n.id).position();
          return p.x < view.x1 || p.x > view.x2 || p.y < view.y1 || p.y > view.y2;
        }).length,
      );
      describe();
      return fresh.length;
    },
    focus(id) {
      const node = cy.$id(id);
      if (node.empty()) return false;
      cy.$(':selected').unselect();
      node.select();
      cy.center(node);
      return true;
    },
    has: (id) => !cy.$id(id).empty(),
    fit() {
      cy.fit(undefined, 40);
      describe();
    },
    layout(name) {
      const options =
        name === 'paths'
          ? {
              name: 'preset',
              positions: (node: cytoscape.NodeSingular) => preset.get(node.id()) ?? node.position(),
            }
          : name === 'force'
            ? {
                name: 'cose',
                animate: false,
                randomize: false,
                idealEdgeLength: () => 160,
                nodeRepulsion: () => 60_000,
              }
            : name === 'tree'
              ? { name: 'breadthfirst', directed: true, spacingFactor: 1.2 }
              : { name };
      cy.layout({ ...options, fit: true, padding: 40 } as cytoscape.LayoutOptions).run();
      container.dataset.layout = name;
      describe();
    },
    destroy: () => cy.destroy(),
  };
  return drawn;
}

/** The anchors that took no part in the picture, folded away (a closed `<details>`). */
export function unusedAnchorsList(picture: Picture, onNode: (id: string) => void): HTMLElement | string {
  const unused = picture.unusedAnchors;
  if (unused.length === 0) return '';
  return h(
    'details',
    { class: 'unused-anchors' },
    h(
      'summary',
      {},
      `${unused.length} anchor${unused.length === 1 ? '' : 's'} of the plan took no part in these paths`,
    ),
    h(
      'ul',
      {},
      unused.map((a) =>
        h(
          'li',
          {},
          `“${a.mention}” → `,
          h('button', { type: 'button', class: 'link', onclick: () => onNode(a.id) }, a.label),
          ` (${a.type})`,
        ),
      ),
    ),
  );
}

/** The picture's nodes as a list beside the canvas: readable without the drawing, and clickable. */
export function pictureLegend(picture: Picture, onNode: (id: string) => void, query = ''): HTMLElement {
  return h(
    'ul',
    { class: 'picture-nodes' },
    picture.nodes.map((n) =>
      h(
        'li',
        { 'data-node': n.id },
        h('span', { class: 'swatch', style: `background:${viaColours[n.via] ?? '#495057'}` }),
        h(
          'button',
          { type: 'button', class: 'link', onclick: () => onNode(n.id) },
          ...marked(n.label, query),
        ),
        ` ${n.type} · ${n.role === 'result' ? 'result' : n.role === 'anchor' ? `anchor “${n.mention ?? ''}”` : `reached by ${n.via}`}`,
      ),
    ),
  );
}
