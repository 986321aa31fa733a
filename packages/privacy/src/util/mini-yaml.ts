/**
 * A deliberately small YAML reader for alias tables: nested mappings of plain or quoted
 * scalars, `#` comments. Anything else is refused, so the package needs no YAML dependency;
 * use JSON files for richer content.
 */
import { PrivacyError } from '../errors.js';

/** A line the YAML subset cannot read; `data.line` says which. */
export class MiniYamlError extends PrivacyError {
  constructor(problem: string, line: number) {
    super('bad_alias_file', `${problem} on line ${line}`, { line });
  }
}

function scalar(raw: string, line: number): string {
  const t = raw.trim();
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw new MiniYamlError('unterminated string', line);
    return JSON.parse(t) as string;
  }
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new MiniYamlError('unterminated string', line);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[[{&*!|>-]/.test(t)) throw new MiniYamlError('unsupported YAML syntax', line);
  return t;
}

function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/** Parses nested string mappings. */
export function parseMiniYaml(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const stack: Array<{ indent: number; map: Record<string, unknown> }> = [{ indent: -1, map: root }];
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = stripComment(lines[n]!);
    if (line.trim() === '' || line.trim() === '---') continue;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:]+?)\s*:(?:\s+(.*))?$/.exec(body);
    if (!m) throw new MiniYamlError('unsupported YAML syntax', n + 1);
    const key = scalar(m[1]!, n + 1);
    while (stack.length > 1 && indent <= stack[stack.length - 1]!.indent) stack.pop();
    const parent = stack[stack.length - 1]!.map;
    const rest = m[2]?.trim();
    if (rest === undefined || rest === '') {
      const child: Record<string, unknown> = {};
      parent[key] = child;
      stack.push({ indent, map: child });
    } else parent[key] = scalar(rest, n + 1);
  }
  return root;
}
