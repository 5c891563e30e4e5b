/**
 * The part of Kùzu's Node.js API that Weft uses. Kùzu (`kuzu`) and its maintained fork LadybugDB
 * (`@ladybugdb/core`) both have it, so one store (`EmbeddedGraphStore`) and one bulk build
 * (`buildEmbeddedGraph`) serve both; an engine package supplies an `EmbeddedEngine` for its module.
 */
export type EngineValue = unknown;

export interface EngineQueryResult {
  hasNext(): boolean;
  getNextSync(): Record<string, EngineValue> | null;
  getAllSync(): Record<string, EngineValue>[];
  getColumnNamesSync(): string[];
  close(): void;
}

export interface EnginePreparedStatement {
  isSuccess(): boolean;
  getErrorMessage(): string;
}

export interface EngineConnection {
  prepare(statement: string): Promise<EnginePreparedStatement>;
  execute(
    prepared: EnginePreparedStatement,
    params?: Record<string, EngineValue>,
  ): Promise<EngineQueryResult | EngineQueryResult[]>;
  query(statement: string): Promise<EngineQueryResult | EngineQueryResult[]>;
  setQueryTimeout(milliseconds: number): void;
  close(): Promise<void>;
}

export interface EngineDatabase {
  init(): Promise<void>;
  close(): Promise<void>;
}

export interface EmbeddedDatabaseOptions {
  readonly readOnly: boolean;
  /** Buffer pool in bytes; absent = the engine's default. */
  readonly bufferPoolSize?: number;
}

/** One Kùzu-API engine: how to open its databases and connections, and what to call it. */
export interface EmbeddedEngine {
  /** The provider id (`kuzu`, `ladybug`): `GraphStoreV1.provider` and the manifest's `graph.provider`. */
  readonly id: string;
  /** The engine's name in messages, e.g. `Kùzu`. */
  readonly label: string;
  /** The database file inside a graph directory, e.g. `graph.kuzu`. */
  readonly databaseFileName: string;
  /**
   * Loads the engine's native module; awaited before `openDatabase` and `connect`. Importing an engine
   * package loads nothing native: a process that merely imports both Kùzu and LadybugDB stays safe
   * (one that loads both native modules segfaults when it exits).
   */
  load(): Promise<void>;
  openDatabase(path: string, options: EmbeddedDatabaseOptions): EngineDatabase;
  connect(database: EngineDatabase): EngineConnection;
}
