/** What `extractJson` found: the value and what it had to fix, or why there is none. */
export type ExtractedJson =
  | { readonly ok: true; readonly value: unknown; readonly repairs: readonly string[] }
  | { readonly ok: false; readonly message: string };

/** The text of the first fenced code block (```json … ```), when there is one. */
export function fencedBlock(text: string, languages: readonly string[] = []): string | undefined {
  const match = /```[ \t]*([A-Za-z0-9_-]*)[^\n]*\n([\s\S]*?)```/.exec(text);
  if (!match) return undefined;
  const language = match[1]!.toLowerCase();
  if (language && languages.length > 0 && !languages.includes(language)) return undefined;
  return match[2]!;
}

/** The first balanced `{…}` or `[…]` of `text`, skipping brackets inside strings. */
function balanced(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') stack.push(char === '{' ? '}' : ']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return undefined;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * JSON from a model's answer, as leniently as is safe: a code fence, prose before or after the
 * object, typographic quotes and trailing commas are repaired (and listed in `repairs`); anything
 * else is reported, never thrown.
 */
export function extractJson(answer: string): ExtractedJson {
  const repairs: string[] = [];
  let text = answer.replace(/^\uFEFF/, '').trim();
  if (!text) return { ok: false, message: 'the answer is empty' };
  const fenced = fencedBlock(text, ['json', 'json5', 'javascript', 'js']);
  if (fenced !== undefined && fenced.trim() !== text) {
    text = fenced.trim();
    repairs.push('code fence removed');
  }
  let parsed = tryParse(text);
  if (parsed.ok) return { ok: true, value: parsed.value, repairs };
  const inner = balanced(text);
  if (inner !== undefined && inner !== text) {
    text = inner;
    repairs.push('text around the JSON dropped');
    parsed = tryParse(text);
    if (parsed.ok) return { ok: true, value: parsed.value, repairs };
  }
  const cleaned = text
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/,(\s*[}\]])/g, '$1');
  if (cleaned !== text) {
    const retried = tryParse(cleaned);
    if (retried.ok)
      return { ok: true, value: retried.value, repairs: [...repairs, 'quotes or trailing commas fixed'] };
  }
  if (inner === undefined && !/[{[]/.test(text))
    return { ok: false, message: 'the answer holds no JSON object' };
  return { ok: false, message: `the answer is not valid JSON (${parsed.message})` };
}
