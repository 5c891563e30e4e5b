import type { Type } from '@pkmn/dex';

export type Effectiveness = 'super_effective_against' | 'not_very_effective_against' | 'no_effect_on';

export interface TypeMatchup {
  readonly attacker: string;
  readonly defender: string;
  readonly effectiveness: Effectiveness;
}

// Showdown's `damageTaken` codes on the defending type; 0 (neutral) gives no matchup.
const byCode: Readonly<Record<number, Effectiveness>> = {
  1: 'super_effective_against',
  2: 'not_very_effective_against',
  3: 'no_effect_on',
};

/** Every non-neutral (attacking type, defending type) pair among `types`. */
export function typeMatchups(types: readonly Type[]): TypeMatchup[] {
  return types.flatMap((attacker) =>
    types.flatMap((defender) => {
      const effectiveness = byCode[defender.damageTaken[attacker.name] ?? 0];
      return effectiveness ? [{ attacker: attacker.name, defender: defender.name, effectiveness }] : [];
    }),
  );
}
