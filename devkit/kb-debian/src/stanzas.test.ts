import { describe, expect, it } from 'vitest';
import { extractDebianGraph, translationIndex } from './debian-graph.ts';
import { debtags, longDescription, maintainerName, parseStanzas, relationAlternatives } from './stanzas.ts';

// A few stanzas in the shape of apt's Packages and Translation-en lists.
const packages = `Package: ssh-tool
Version: 1.0-1
Maintainer: Debian Tools Team <tools@lists.debian.org>
Architecture: amd64
Depends: libssh-4 (>= 0.9), libc6 (>= 2.34) | libc6.1, mail-transport-agent
Pre-Depends: dpkg (>= 1.15.6~)
Recommends: python3:any, missing-package
Suggests: editor
Description: tool that talks to remote hosts
Description-md5: 0123456789abcdef0123456789abcdef
Tag: interface::commandline, network::client,
 role::program
Section: net
Priority: optional

Package: libssh-4
Source: libssh (0.10.5-2)
Version: 0.10.5-2
Maintainer: Jane Doe <jane@example.org>
Architecture: amd64
Description: tiny C library for remote shells
Section: libs
Priority: optional

Package: libc6
Source: glibc
Version: 2.36-9
Maintainer: GNU Libc Maintainers <debian-glibc@lists.debian.org>
Architecture: amd64
Depends: libgcc-s1
Description: GNU C Library: Shared libraries
Section: libs

Package: dpkg
Version: 1.21.22
Maintainer: Dpkg Developers <debian-dpkg@lists.debian.org>
Architecture: amd64
Description: Debian package management system
Section: admin

Package: python3
Version: 3.11.2-1
Maintainer: Matthias Klose <doko@debian.org>
Architecture: amd64
Description: interactive high-level object-oriented language
Section: python

Package: tiny-mta
Version: 1
Maintainer: Jane Doe <jane@example.org>
Architecture: all
Provides: mail-transport-agent, editor (= 1)
Description: relay-only mail transport agent
Section: mail

Package: nano-ish
Version: 1
Maintainer: Jane Doe <jane@example.org>
Architecture: amd64
Provides: editor, dpkg
Description: small editor
Section: editors
`;

const translations = `Package: ssh-tool
Description-md5: 0123456789abcdef0123456789abcdef
Description-en: tool that talks to remote hosts
 It opens sessions on remote machines.
 .
 Second paragraph:
   indented verbatim line

Package: libssh-4
Description-md5: ffffffffffffffffffffffffffffffff
Description-en: a description of another version
 Not joined: its md5 differs from the Packages stanza's (which has none).
`;

describe('parseStanzas', () => {
  it('splits stanzas on blank lines and joins continuation lines', () => {
    const stanzas = parseStanzas(packages);
    expect(stanzas).toHaveLength(7);
    expect(stanzas[0]?.Package).toBe('ssh-tool');
    expect(stanzas[0]?.Tag).toBe('interface::commandline, network::client,\nrole::program');
    expect(stanzas[1]?.Source).toBe('libssh (0.10.5-2)');
  });

  it('reads a long description into a synopsis and paragraphs', () => {
    const [stanza] = parseStanzas(translations);
    const { synopsis, body } = longDescription(stanza?.['Description-en'] ?? '');
    expect(synopsis).toBe('tool that talks to remote hosts');
    expect(body).toBe('It opens sessions on remote machines.\n\nSecond paragraph:\n  indented verbatim line');
  });
});

describe('field helpers', () => {
  it('drop versions and architecture qualifiers and keep every alternative', () => {
    expect(relationAlternatives('a (>= 1), b:any | c [amd64], d <!nocheck>')).toEqual([
      ['a'],
      ['b', 'c'],
      ['d'],
    ]);
    expect(relationAlternatives(undefined)).toEqual([]);
  });

  it('name maintainers without their address and list debtags', () => {
    expect(maintainerName('Debian Games Team <pkg-games-devel@lists.alioth.debian.org>')).toBe(
      'Debian Games Team',
    );
    expect(debtags('game::strategy, role::program,\n use::gameplaying')).toEqual([
      'game::strategy',
      'role::program',
      'use::gameplaying',
    ]);
  });
});

describe('extractDebianGraph', () => {
  const graph = extractDebianGraph(parseStanzas(packages), translationIndex(parseStanzas(translations)));
  const edges = new Set(graph.edges.map((e) => `${e.src} ${e.type} ${e.dst}`));
  const node = (id: string) => graph.nodes.find((n) => n.id === id);

  it('makes package nodes with short and long descriptions joined by Description-md5', () => {
    expect(node('package:ssh-tool')?.text).toBe(
      'tool that talks to remote hosts\n\nIt opens sessions on remote machines.\n\nSecond paragraph:\n  indented verbatim line',
    );
    expect(node('package:ssh-tool')?.props).toMatchObject({
      version: '1.0-1',
      section: 'net',
      priority: 'optional',
    });
    expect(node('package:libssh-4')?.text).toBe('tiny C library for remote shells');
    expect(graph.longDescriptions).toBe(1);
  });

  it('turns Depends and Pre-Depends into depends edges, to every alternative the list has', () => {
    expect(edges).toContain('package:ssh-tool depends package:libssh-4');
    expect(edges).toContain('package:ssh-tool depends package:libc6');
    expect(edges).toContain('package:ssh-tool depends package:dpkg');
    expect([...edges].some((e) => e.includes('libc6.1') || e.includes('libgcc-s1'))).toBe(false);
    expect(edges).toContain('package:ssh-tool recommends package:python3');
    expect([...edges].some((e) => e.includes('missing-package'))).toBe(false);
  });

  it('sends relations to virtual packages and keeps real packages real', () => {
    expect(edges).toContain('package:ssh-tool depends virtual:mail-transport-agent');
    expect(edges).toContain('package:ssh-tool suggests virtual:editor');
    expect(edges).toContain('package:tiny-mta provides virtual:mail-transport-agent');
    expect(edges).toContain('package:nano-ish provides virtual:editor');
    expect(edges).toContain('package:nano-ish provides package:dpkg');
    expect(node('virtual:editor')?.text).toBe('virtual package editor, provided by tiny-mta, nano-ish');
  });

  it('links packages to their source, section, maintainer and debtags', () => {
    expect(edges).toContain('package:libssh-4 built_from source:libssh');
    expect(edges).toContain('package:ssh-tool built_from source:ssh-tool');
    expect(edges).toContain('package:ssh-tool in_section section:net');
    expect(edges).toContain('package:ssh-tool maintained_by maintainer:Debian Tools Team');
    expect(edges).toContain('package:tiny-mta maintained_by maintainer:Jane Doe');
    expect(edges).toContain('package:ssh-tool tagged tag:role::program');
    expect(node('maintainer:Jane Doe')?.text).toBe('Jane Doe, Debian maintainer of 3 packages');
    expect(node('source:libssh')?.text).toBe('source package libssh, which builds libssh-4');
  });

  it('has no dangling edges and no duplicate nodes', () => {
    const ids = new Set(graph.nodes.map((n) => n.id));
    expect(ids.size).toBe(graph.nodes.length);
    for (const edge of graph.edges) {
      expect(ids.has(edge.src) && ids.has(edge.dst), `${edge.src} -> ${edge.dst}`).toBe(true);
    }
  });
});
