import type { SkbSchema } from '@weft/spec';

export type DebianNodeType = 'package' | 'source' | 'section' | 'maintainer' | 'tag' | 'virtual';

export type DebianEdgeType =
  | 'depends'
  | 'recommends'
  | 'suggests'
  | 'built_from'
  | 'in_section'
  | 'maintained_by'
  | 'tagged'
  | 'provides';

const edge = (name: DebianEdgeType, from: DebianNodeType, to: DebianNodeType, description: string) => ({
  name,
  from,
  to,
  description,
});

/** The bundle's schema.json. */
export const debianSchema: SkbSchema = {
  name: 'debian-bookworm-main',
  version: 1,
  description:
    "The Debian package archive, bookworm main, amd64 (binary packages of architecture amd64 and all), from apt's Packages and Translation-en lists. A package node's text is its short description and its long description; source, section, maintainer (team or person, without e-mail), debtag and virtual package nodes are the things packages are related to. Edges: package depends (Depends and Pre-Depends) / recommends / suggests -> package or virtual (every alternative of an `a | b` that the archive has; versions dropped), built_from -> source, in_section -> section, maintained_by -> maintainer, tagged -> tag, provides -> virtual (or -> package where the provided name is a real package). Ids are <node type>:<name>, e.g. package:libssh-4, source:libssh, section:games, maintainer:Debian Python Team, tag:use::gameplaying, virtual:mail-transport-agent.",
  nodeTypes: [
    { name: 'package', description: 'a binary package of bookworm main (amd64 or all)' },
    { name: 'source', description: 'a source package, which builds one or more binary packages' },
    { name: 'section', description: 'an archive section (games, python, libs, ...)' },
    { name: 'maintainer', description: 'the maintainer of packages: a packaging team or a person' },
    { name: 'tag', description: 'a debtag, facet::value (use::gameplaying, implemented-in::c)' },
    { name: 'virtual', description: 'a virtual package: a name that packages provide but no package has' },
  ],
  edgeTypes: [
    edge('depends', 'package', 'package', 'Depends or Pre-Depends on the package (any alternative)'),
    edge('depends', 'package', 'virtual', 'Depends or Pre-Depends on a virtual package'),
    edge('recommends', 'package', 'package', 'Recommends the package'),
    edge('recommends', 'package', 'virtual', 'Recommends a virtual package'),
    edge('suggests', 'package', 'package', 'Suggests the package'),
    edge('suggests', 'package', 'virtual', 'Suggests a virtual package'),
    edge('built_from', 'package', 'source', 'the binary package is built from the source package'),
    edge('in_section', 'package', 'section', 'the archive section of the package'),
    edge('maintained_by', 'package', 'maintainer', 'the Maintainer of the package'),
    edge('tagged', 'package', 'tag', 'the package carries the debtag'),
    edge('provides', 'package', 'virtual', 'the package Provides the virtual package'),
    edge('provides', 'package', 'package', 'the package Provides the name of a real package'),
  ],
  targetTypes: ['package'],
};
