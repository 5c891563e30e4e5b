/** A static file the server sends as it is. */
export interface Asset {
  readonly body: string | Uint8Array;
  readonly contentType: string;
}

/**
 * Where the server finds static files (the explorer's page and scripts): a URL path in, the file
 * or `undefined` out. The server does not know what it serves; `weft serve` hands it the explorer's.
 */
export type AssetSource = (urlPath: string) => Promise<Asset | undefined>;
