import type { z } from '@hono/zod-openapi';
import type { ApiSchemas } from '../api-schemas.ts';

/** The body of a response as one of the API's schemas describes it. */
export type ApiBody<K extends keyof ApiSchemas> = z.infer<ApiSchemas[K]>;

/** Test support (not a test): reads a response's JSON typed by its schema; the test checks the values. */
export async function readJson<K extends keyof ApiSchemas>(
  response: Response,
  _schema: K,
): Promise<ApiBody<K>> {
  return (await response.json()) as ApiBody<K>;
}
