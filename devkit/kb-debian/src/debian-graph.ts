import type { SkbEdge, SkbNode } from '@weft/spec';
import type { DebianNodeType } from './debian-schema.ts';
import {
  debtags,
  longDescription,
  maintainerName,
  relationAlternatives,
  type Stanza,
  sourceName,
} from './stanzas.ts';

export interface DebianGraph {
  readonly nodes: SkbNode[];
  readonly edges: SkbEdge[];
  /** Packages whose long description was found in the Translation stanzas. */
  readonly longDescriptions: number;
}

/** A node id: `<type>:<name>` (`package:libssh-4`, `maintainer:Debian Games Team`). */
export function nodeId(type: DebianNodeType, name: string): string {
  return `${type}:${name}`;
}

/** Translation-en stanzas keyed by `Package` and `Description-md5`, to their `Description-en`. */
export function translationIndex(stanzas: Iterable<Stanza>): Map<string, string> {
  const index = new Map<string, string>();
  for (const stanza of stanzas) {
    const description = stanza['Description-en'];
    if (stanza.Package && stanza['Description-md5'] && description)
      index.set(`${stanza.Package}\t${stanza['Description-md5']}`, description);
  }
  return index;
}

const listed = (names: readonly string[], max: number) =>
  names.length <= max ? names.join(', ') : `${names.slice(0, max).join(', ')} and ${names.length - max} more`;

/**
 * The graph of a Packages list: one `package` node per binary package (the first stanza of a name
 * wins), joined to its long description by Package and Description-md5; `source`, `section`,
 * `maintainer`, `tag` and `virtual` nodes for what packages name; and the edges of the schema. A
 * relation to a name the list has neither as a package nor as something provided is dropped.
 */
export function extractDebianGraph(
  packageStanzas: Iterable<Stanza>,
  translations: ReadonlyMap<string, string> = new Map(),
): DebianGraph {
  const packages = new Map<string, Stanza>();
  for (const stanza of packageStanzas) {
    if (stanza.Package && !packages.has(stanza.Package)) packages.set(stanza.Package, stanza);
  }
  const provided = new Set<string>();
  for (const stanza of packages.values())
    for (const group of relationAlternatives(stanza.Provides)) for (const name of group) provided.add(name);

  const target = (name: string): string | undefined => {
    if (packages.has(name)) return nodeId('package', name);
    if (provided.has(name)) return nodeId('virtual', name);
    return undefined;
  };

  const nodes: SkbNode[] = [];
  const edges: SkbEdge[] = [];
  const seenEdges = new Set<string>();
  const addEdge = (src: string, type: string, dst: string) => {
    const key = `${src}\t${type}\t${dst}`;
    if (seenEdges.has(key) || src === dst) return;
    seenEdges.add(key);
    edges.push({ src, type, dst });
  };
  const sources = new Map<string, string[]>();
  const sections = new Map<string, number>();
  const maintainers = new Map<string, string[]>();
  const tags = new Map<string, number>();
  const virtuals = new Map<string, string[]>();
  let longDescriptions = 0;

  for (const [name, stanza] of packages) {
    const id = nodeId('package', name);
    const short = stanza.Description ?? stanza['Description-en'] ?? '';
    const { synopsis, body: ownBody } = longDescription(short);
    let body = ownBody;
    const translated = stanza['Description-md5']
      ? translations.get(`${name}\t${stanza['Description-md5']}`)
      : undefined;
    if (translated !== undefined) {
      body = longDescription(translated).body;
      longDescriptions += 1;
    }
    const props: Record<string, string> = {};
    for (const [field, prop] of [
      ['Version', 'version'],
      ['Architecture', 'architecture'],
      ['Priority', 'priority'],
      ['Section', 'section'],
      ['Homepage', 'homepage'],
    ] as const) {
      if (stanza[field]) props[prop] = stanza[field];
    }
    nodes.push({ id, type: 'package', name, text: body ? `${synopsis}\n\n${body}` : synopsis, props });

    for (const [field, type] of [
      ['Pre-Depends', 'depends'],
      ['Depends', 'depends'],
      ['Recommends', 'recommends'],
      ['Suggests', 'suggests'],
    ] as const) {
      for (const group of relationAlternatives(stanza[field]))
        for (const alternative of group) {
          const dst = target(alternative);
          if (dst) addEdge(id, type, dst);
        }
    }
    for (const group of relationAlternatives(stanza.Provides))
      for (const virtual of group) {
        if (packages.has(virtual)) addEdge(id, 'provides', nodeId('package', virtual));
        else {
          addEdge(id, 'provides', nodeId('virtual', virtual));
          virtuals.set(virtual, [...(virtuals.get(virtual) ?? []), name]);
        }
      }
    const source = sourceName(stanza);
    sources.set(source, [...(sources.get(source) ?? []), name]);
    addEdge(id, 'built_from', nodeId('source', source));
    if (stanza.Section) {
      sections.set(stanza.Section, (sections.get(stanza.Section) ?? 0) + 1);
      addEdge(id, 'in_section', nodeId('section', stanza.Section));
    }
    const maintainer = maintainerName(stanza.Maintainer);
    if (maintainer) {
      maintainers.set(maintainer, [...(maintainers.get(maintainer) ?? []), name]);
      addEdge(id, 'maintained_by', nodeId('maintainer', maintainer));
    }
    for (const tag of debtags(stanza.Tag)) {
      tags.set(tag, (tags.get(tag) ?? 0) + 1);
      addEdge(id, 'tagged', nodeId('tag', tag));
    }
  }

  for (const [name, built] of sources)
    nodes.push({
      id: nodeId('source', name),
      type: 'source',
      name,
      text: `source package ${name}, which builds ${listed(built, 12)}`,
    });
  for (const [name, count] of sections)
    nodes.push({
      id: nodeId('section', name),
      type: 'section',
      name,
      text: `Debian archive section ${name} (${count} packages)`,
    });
  for (const [name, maintained] of maintainers)
    nodes.push({
      id: nodeId('maintainer', name),
      type: 'maintainer',
      name,
      text: `${name}, Debian maintainer of ${maintained.length} package${maintained.length === 1 ? '' : 's'}`,
    });
  for (const [name, count] of tags)
    nodes.push({ id: nodeId('tag', name), type: 'tag', name, text: `debtag ${name} (${count} packages)` });
  for (const [name, providers] of virtuals)
    nodes.push({
      id: nodeId('virtual', name),
      type: 'virtual',
      name,
      text: `virtual package ${name}, provided by ${listed(providers, 12)}`,
    });
  // A dependency on a provided name that only real packages provide (no virtual node) was pointed at
  // `virtual:<name>` above; keep only edges whose ends exist.
  const ids = new Set(nodes.map((node) => node.id));
  return { nodes, edges: edges.filter((e) => ids.has(e.dst)), longDescriptions };
}
