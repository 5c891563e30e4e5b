import type { SkbSchema } from '@weft/spec';

const clip = (text: string | undefined, max: number) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/**
 * The schema as a prompt reads it: node types with their descriptions, edge types written
 * `from -[name]-> to` with theirs, and the types answers may have. Descriptions are clipped to
 * `maxDescription` characters (default 160) so that large schemas stay affordable.
 */
export function describeSchema(
  schema: SkbSchema,
  options: { readonly maxDescription?: number } = {},
): string {
  const max = options.maxDescription ?? 160;
  const node = (name: string) => (name === '*' ? 'any' : name);
  const lines = [
    `Knowledge base "${schema.name}"${schema.description ? `: ${clip(schema.description, max)}` : ''}`,
    'Node types:',
    ...schema.nodeTypes.map((t) => `- ${t.name}${t.description ? `: ${clip(t.description, max)}` : ''}`),
    'Edge types (directed, from -[edge]-> to):',
    ...schema.edgeTypes.map(
      (t) =>
        `- (${node(t.from)}) -[${t.name}]-> (${node(t.to)})${t.description ? `: ${clip(t.description, max)}` : ''}`,
    ),
  ];
  if (schema.targetTypes) lines.push(`Answer types: ${schema.targetTypes.join(', ')}`);
  return lines.join('\n');
}
