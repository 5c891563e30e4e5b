import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { NameIndex, type NameIndexState } from './name-index.ts';

/**
 * A `NameIndex` saved to one file, so that a later process reads it instead of scanning every
 * name through the graph engine and, when they were built, re-deriving the trigram postings (7 and
 * 7 s at 10^6 nodes). Layout: the magic, a JSON header (its length first) naming each section's
 * place, then the sections: lists of strings as UTF-8 joined by NUL, number lists as 32-bit
 * integers at 4-byte-aligned places. `stamp` names the graph it was made from: a file of another
 * stamp is not used.
 */
const magic = Buffer.from('WEFTNAM1');

type Section = readonly string[] | Uint32Array;

interface Header {
  readonly stamp: string;
  /** name → [kind, byte offset after the header block, byte length, element count] */
  readonly sections: Readonly<Record<string, readonly ['strings' | 'u32', number, number, number]>>;
}

function sectionsOf(state: NameIndexState): Record<string, Section> {
  const { grams, ...lists } = state;
  return {
    ...lists,
    ...(grams
      ? {
          gramKeys: grams.keys,
          gramStart: grams.start,
          gramLabels: grams.labels,
          labelGramTotal: grams.labelGramTotal,
        }
      : {}),
  };
}

/** Writes `index` to `path` through a temporary file; false, writing nothing, when a string holds a NUL. */
export async function writeNameIndexFile(path: string, index: NameIndex, stamp: string): Promise<boolean> {
  const sections = sectionsOf(index.toState());
  const bodies: [string, 'strings' | 'u32', Uint8Array, number][] = [];
  for (const [name, section] of Object.entries(sections)) {
    if (section instanceof Uint32Array) {
      bodies.push([
        name,
        'u32',
        new Uint8Array(section.buffer, section.byteOffset, section.byteLength),
        section.length,
      ]);
    } else {
      if (section.some((text) => text.includes('\0'))) return false;
      bodies.push([name, 'strings', Buffer.from(section.join('\0')), section.length]);
    }
  }
  let at = 0;
  const placed: Record<string, ['strings' | 'u32', number, number, number]> = {};
  for (const [name, kind, bytes, count] of bodies) {
    placed[name] = [kind, at, bytes.length, count];
    at += Math.ceil(bytes.length / 4) * 4;
  }
  const json = Buffer.from(JSON.stringify({ stamp, sections: placed } satisfies Header));
  const headerBlock = Buffer.alloc(Math.ceil((magic.length + 4 + json.length) / 8) * 8);
  magic.copy(headerBlock, 0);
  headerBlock.writeUInt32LE(json.length, magic.length);
  json.copy(headerBlock, magic.length + 4);
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.write(headerBlock);
    for (const [, , bytes] of bodies) {
      await file.write(bytes);
      const padding = Math.ceil(bytes.length / 4) * 4 - bytes.length;
      if (padding > 0) await file.write(Buffer.alloc(padding));
    }
    await file.close();
    await rename(temporary, path);
    return true;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Reads a file of `writeNameIndexFile`; undefined when there is none, or it is of another stamp or malformed. */
export async function readNameIndexFile(path: string, stamp: string): Promise<NameIndex | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return undefined;
  }
  if (bytes.length < magic.length + 4 || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const length = bytes.readUInt32LE(magic.length);
  try {
    const header = JSON.parse(bytes.toString('utf8', magic.length + 4, magic.length + 4 + length)) as Header;
    if (header.stamp !== stamp) return undefined;
    const base = Math.ceil((magic.length + 4 + length) / 8) * 8;
    const data = (bytes.byteOffset + base) % 4 === 0 ? bytes : Buffer.from(bytes);
    const section = (name: string): Section | undefined => {
      const place = header.sections[name];
      if (!place) return undefined;
      const [kind, at, size, count] = place;
      if (base + at + size > data.length) throw new RangeError('truncated name index file');
      if (kind === 'u32') return new Uint32Array(data.buffer, data.byteOffset + base + at, count);
      if (count === 0) return [];
      const strings = data.toString('utf8', base + at, base + at + size).split('\0');
      if (strings.length !== count) throw new RangeError('malformed name index file');
      return strings;
    };
    const strings = (name: string) => section(name) as readonly string[];
    const numbers = (name: string) => section(name) as Uint32Array;
    const gramKeys = section('gramKeys') as readonly string[] | undefined;
    const state: NameIndexState = {
      ids: strings('ids'),
      names: strings('names'),
      typeOf: numbers('typeOf'),
      types: strings('types'),
      aliasKeys: strings('aliasKeys'),
      aliasStart: numbers('aliasStart'),
      aliasNodes: numbers('aliasNodes'),
      labels: strings('labels'),
      labelStart: numbers('labelStart'),
      labelNodeList: numbers('labelNodeList'),
      labelSpellings: strings('labelSpellings'),
      ...(gramKeys
        ? {
            grams: {
              keys: gramKeys,
              start: numbers('gramStart'),
              labels: numbers('gramLabels'),
              labelGramTotal: numbers('labelGramTotal'),
            },
          }
        : {}),
    };
    return NameIndex.fromState(state);
  } catch {
    return undefined;
  }
}
