/**
 * `template`: adds a field built from others to every dict that has all the fields the
 * template names (section 11.5). One-way.
 */
import type { Transform, TransformContext } from '../types.js';
import { isRecord, OptionReader } from '../util/options.js';

interface FieldTemplate {
  target: string;
  parts: Array<string | { field: string }>;
  fields: string[];
  overwrite: boolean;
}

/** Parses `str.format`-style templates: `{name}` fields, `{{` and `}}` escapes. */
function parseTemplate(text: string): Array<string | { field: string }> | null {
  const parts: Array<string | { field: string }> = [];
  let lit = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '{' && text[i + 1] === '{') {
      lit += '{';
      i++;
    } else if (c === '}' && text[i + 1] === '}') {
      lit += '}';
      i++;
    } else if (c === '{') {
      const close = text.indexOf('}', i);
      if (close === -1) return null;
      const field = text
        .slice(i + 1, close)
        .split(/[!:]/)[0]!
        .trim();
      if (!field) return null;
      if (lit) parts.push(lit);
      lit = '';
      parts.push({ field });
      i = close;
    } else if (c === '}') return null;
    else lit += c;
  }
  if (lit) parts.push(lit);
  return parts;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null) return 'null';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export class TemplateField implements Transform {
  readonly name = 'template';
  private readonly templates: FieldTemplate[];

  constructor(
    options: Record<string, unknown> = {},
    readonly id = 'template',
    transformName = 'template',
    optionName = 'templates',
  ) {
    const o: OptionReader = new OptionReader(transformName, options, [optionName]);
    this.templates = o.list(optionName).map((raw, i) => {
      if (!isRecord(raw) || typeof raw.target !== 'string' || typeof raw.template !== 'string') {
        return o.fail(`${optionName}[${i}]`, "a mapping with 'target' and 'template' strings");
      }
      for (const k of Object.keys(raw)) {
        if (!['target', 'template', 'overwrite'].includes(k))
          o.fail(`${optionName}[${i}].${k}`, 'a known field');
      }
      const parts = parseTemplate(raw.template);
      if (!parts) return o.fail(`${optionName}[${i}].template`, 'a valid format template');
      const fields = parts.filter((p): p is { field: string } => typeof p !== 'string').map((p) => p.field);
      return { target: raw.target, parts, fields, overwrite: raw.overwrite === true };
    });
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    if (this.templates.length === 0) return value;
    let n = 0;
    const visit = (v: unknown): unknown => {
      if (typeof v !== 'object' || v === null) return v;
      if (Array.isArray(v)) {
        let out: unknown[] | null = null;
        v.forEach((item, i) => {
          const r = visit(item);
          if (r !== item && !out) out = v.slice(0, i);
          if (out) out.push(r);
        });
        return out ?? v;
      }
      const obj = v as Record<string, unknown>;
      let out: Record<string, unknown> | null = null;
      for (const k of Object.keys(obj)) {
        const r = visit(obj[k]);
        if (r !== obj[k]) {
          out ??= { ...obj };
          out[k] = r;
        }
      }
      for (const t of this.templates) {
        const cur = out ?? obj;
        if (!t.overwrite && t.target in cur) continue;
        if (!t.fields.every((f) => f in cur && cur[f] !== undefined)) continue;
        const text = t.parts.map((p) => (typeof p === 'string' ? p : show(cur[p.field]))).join('');
        out ??= { ...obj };
        out[t.target] = text;
        n++;
      }
      return out ?? obj;
    };
    const out = visit(value);
    if (n) ctx.report.templated = (ctx.report.templated ?? 0) + n;
    return out;
  }
}
