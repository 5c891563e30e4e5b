import { markedPieces } from './query-words.ts';

type Child = Node | string | null | undefined | false;

/** `h('li', { class: 'result' }, 'text', child)`: a DOM element, without a framework. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | boolean | ((event: Event) => void)>> = {},
  ...children: readonly (Child | readonly Child[])[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from the page`);
  return element as T;
}

/** The first `max` characters of a document, cut at a word. */
export function snippet(text: string, max = 180): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 20))}…`;
}

/** `text` with the question's words in `<mark>`s (see `matchRanges`). */
export function marked(text: string, query: string): (string | HTMLElement)[] {
  return markedPieces(text, query).map((piece) => (piece.matched ? h('mark', {}, piece.text) : piece.text));
}
