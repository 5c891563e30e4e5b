import type { ArtifactEnvelope } from '@weft/kit';
import { memoryArtifacts, toyContext, toyTrainingSet } from '@weft/core/test';
import type { LexicalPlannerModel } from '@weft/planner-lexical';
import { describe, expect, it } from 'vitest';
import { defaultTraining } from './default-stack.ts';

const sets = [
  toyTrainingSet(
    [
      ['products by Nikon', ['p:d850', 'p:d3500', 'p:nikkor']],
      ['products by Canon', ['p:eos', 'p:ef']],
      ['products by Leica', ['p:q2']],
      ['what works with the Canon EOS 90D', ['p:ef']],
      ['what works with the Nikon D850', ['p:nikkor']],
      ['what works with the Nikon D3500', ['p:nikkor']],
      ['lenses made by Nikon', ['p:nikkor']],
      ['lenses made by Canon', ['p:ef']],
      ['a light entry level camera', ['p:d3500']],
      ['a rangefinder style compact with a fixed lens', ['p:q2']],
      // A mention that names no anchor (the Leica Q2 is next to neither answer): the mention model's negatives.
      ['a camera like the Leica Q2 but made by Nikon', ['p:d850', 'p:d3500']],
      ['a lens like the Canon EF 100-400mm but made by Nikon', ['p:nikkor']],
    ],
    3,
  ),
];

interface MentionChoice {
  readonly mentionModel: boolean;
  readonly val: number;
}

describe('default stack training', () => {
  it('keeps the mention model only when the stack does better with it on val, and says which', async () => {
    const artifacts = memoryArtifacts();
    const report = await defaultTraining.doTrain({ context: { ...toyContext(), artifacts }, sets });
    const tried = (report.details as { planner: { mentionModel: MentionChoice[] } }).planner.mentionModel;
    // Labelled queries teach the mention model, so both planners were tried, the simpler one first.
    expect(tried.map((t) => t.mentionModel)).toEqual([false, true]);
    const stored = artifacts.stored.get('default.planner-lexical') as ArtifactEnvelope<LexicalPlannerModel>;
    const kept = tried[1]!.val > tried[0]!.val;
    expect(stored.value.mentions !== undefined).toBe(kept);
    expect(report.summary).toContain(`mention model ${kept ? 'kept' : 'dropped'}`);
  });

  it('tries no mention model when only synthesised queries teach it', async () => {
    const artifacts = memoryArtifacts();
    const report = await defaultTraining.doTrain({
      context: { ...toyContext(), artifacts },
      sets: sets.map((set) => ({ ...set, synthesized: true })),
    });
    const tried = (report.details as { planner: { mentionModel: MentionChoice[] } }).planner.mentionModel;
    expect(tried).toEqual([{ mentionModel: false, val: expect.any(Number) }]);
    expect(report.summary).toMatch(
      /^planner: trained on \d+ queries synthesised from the store \(no labelled ones/,
    );
    expect(report.summary).not.toContain('mention model');
  });
});
