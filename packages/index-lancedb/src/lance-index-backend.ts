import { join, resolve } from 'node:path';
import type {
  IndexBackendV1,
  IndexBuildInput,
  IndexBuildResult,
  IndexNodeRecord,
  IndexOpenOptions,
  OpenedIndexesV1,
  VectorIndexV1,
} from '@weft/spec';
import {
  type LanceNodeRecord,
  type TextFieldName,
  textFieldDescriptions,
  writeLanceNodes,
} from './lance-node-table.ts';
import { LanceTextIndex } from './lance-text-index.ts';
import { LanceVectorIndex } from './lance-vector-index.ts';

/** Where a store's indexes go when no target is given, relative to the store directory. */
export const lanceStorePath = 'index/lance';
/**
 * The store-relative folder that keeps the sidecar files (term counts) of indexes on object
 * storage: they are read with plain file reads, so they stay beside the manifest.
 */
const remoteSidecarPath = 'index';

/** `s3://…`, `gs://…`, `az://…`: a location LanceDB reaches through its object-store client. */
export function isObjectStoreUri(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location);
}

/**
 * Storage-option keys that carry credentials (LanceDB's object-store keys are case-insensitive):
 * access keys, secrets, session tokens, SAS tokens, passwords.
 */
const secretKey = /secret|token|password|access_key|account_key|sas_key|credential/i;

function toLanceRecords(nodes: AsyncIterable<IndexNodeRecord> | Iterable<IndexNodeRecord>) {
  return (async function* (): AsyncGenerator<LanceNodeRecord> {
    for await (const node of nodes) {
      yield {
        id: node.id,
        type: node.type,
        name: node.name,
        ...(node.aliases ? { aliases: node.aliases } : {}),
        text: node.text,
        ...(node.relations !== undefined ? { relations: node.relations } : {}),
        ...(node.vector ? { vectors: { vector: node.vector } } : {}),
      };
    }
  })();
}

/**
 * LanceDB behind `IndexBackendV1`: one table with a BM25 index per text field and an ANN index over
 * the embeddings, in the store directory (`index/lance`), in another folder, or on object storage
 * through LanceDB's own `s3://` (`gs://`, `az://`) support.
 */
export const lanceIndexBackend: IndexBackendV1 = {
  specificationVersion: 'v1',
  id: 'lancedb',
  secretOption: (key) => secretKey.test(key),

  async build(input: IndexBuildInput): Promise<IndexBuildResult> {
    const location = input.target ?? lanceStorePath;
    const remote = isObjectStoreUri(location);
    const written = await writeLanceNodes({
      directory: remote ? location : resolve(input.directory, location),
      ...(input.storageOptions ? { storageOptions: input.storageOptions } : {}),
      ...(remote ? { termCountsDirectory: join(input.directory, remoteSidecarPath) } : {}),
      nodes: toLanceRecords(input.nodes),
      relationFields: input.relationFields,
      ...(input.vectorDimensions
        ? { vectorColumns: [{ name: 'vector', dimensions: input.vectorDimensions }] }
        : {}),
      ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    });
    const fields: TextFieldName[] = input.relationFields
      ? ['document', 'relations', 'combined']
      : ['document'];
    return {
      location,
      rows: written.rows,
      fields: fields.map((name) => ({ name, description: textFieldDescriptions[name] })),
      ...(input.vectorDimensions ? { annIndex: written.vectorIndexes.vector ?? 'flat' } : {}),
    };
  },

  async open(location: string, options: IndexOpenOptions = {}): Promise<OpenedIndexesV1> {
    const base = options.baseDirectory ?? '.';
    const remote = isObjectStoreUri(location);
    const uri = remote ? location : resolve(base, location);
    const storage = options.storageOptions ? { storageOptions: options.storageOptions } : {};
    const text = await LanceTextIndex.open(uri, {
      ...storage,
      ...(remote ? { termCountsDirectory: join(base, remoteSidecarPath) } : {}),
    });
    if (options.embedderId === undefined) return { text, close: () => text.close() };
    let vector: VectorIndexV1;
    try {
      vector = await LanceVectorIndex.open(uri, { ...storage, embedderId: options.embedderId });
    } catch (error) {
      await text.close();
      throw error;
    }
    return {
      text,
      vector,
      close: async () => {
        await Promise.all([text.close(), vector.close()]);
      },
    };
  },
};
