import type { Command } from '../command.ts';
import { demoCommand } from './demo.ts';

/** Every `weft` command, in the order `weft --help` lists them. Add new commands here. */
export const commands: readonly Command[] = [demoCommand];
