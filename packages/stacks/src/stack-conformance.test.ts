import { runRetrieverSuite } from '@weft/conformance';
import { createStack } from './index.ts';

// Every built-in stack is a RetrieverV1 over any store it is given: the suite builds each over the
// toy camera shop, a larger store, and stores that abort or accept one query per text search.
for (const name of ['bm25', 'vector', 'hybrid-rrf', 'default', 'mor-offline', 'focused-offline']) {
  runRetrieverSuite({ name: `${name} stack`, create: (context) => createStack(name, { context }) });
}
