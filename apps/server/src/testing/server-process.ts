// Test support (not a test): `weft serve` in a child process, so that tests can measure its memory
// alone and send it signals. Prints one JSON line `{"url": …}` once listening and `{"stopped": true}`
// when it has shut down.
//
//   node --conditions=@weft/source server-process.ts --db <store> [--hold-until-sigterm]
import { parseArgs } from 'node:util';
import { once } from 'node:events';
import { createStackRegistry } from '@weft/stacks';
import { serveStore } from '../serve-store.ts';
import { shutdownOnSignals } from '../shutdown-on-signals.ts';
import { gatedStack } from './test-stacks.ts';

const { values } = parseArgs({
  options: { db: { type: 'string' }, 'hold-until-sigterm': { type: 'boolean' } },
});
if (!values.db) throw new Error('--db is required');
const registry = createStackRegistry();
// `hold` answers only after the process has received SIGTERM: a request to it is in flight when the
// signal arrives, however fast the machine.
if (values['hold-until-sigterm'])
  registry.register(gatedStack('hold', () => once(process, 'SIGTERM').then(() => {})));

const handle = await serveStore({ db: values.db, port: 0, registry });
shutdownOnSignals(handle);
process.stdout.write(`${JSON.stringify({ url: handle.url })}\n`);
await handle.closed;
process.stdout.write(`${JSON.stringify({ stopped: true, requests: handle.tracker.snapshot() })}\n`);
