import type { Command } from '../command.ts';
import { askCommand } from './ask.ts';
import { demoCommand } from './demo.ts';
import { evalCommand } from './eval.ts';
import { infoCommand } from './info.ts';
import { ingestCommand } from './ingest.ts';
import { queryCommand } from './query.ts';
import { serveCommand } from './serve.ts';
import { synthKbCommand } from './synth-kb.ts';
import { synthQueriesCommand } from './synth-queries.ts';
import { trainCommand } from './train.ts';
import { updateCommand } from './update.ts';

/** Every `weft` command, in the order `weft --help` lists them. Add new commands here. */
export const commands: readonly Command[] = [
  demoCommand,
  ingestCommand,
  updateCommand,
  infoCommand,
  queryCommand,
  askCommand,
  evalCommand,
  trainCommand,
  serveCommand,
  synthQueriesCommand,
  synthKbCommand,
];
