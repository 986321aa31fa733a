/**
 * Reading transform options: unknown names are refused, types are checked, and messages name
 * the option, never its value. Option names are snake_case as in policy files; camelCase
 * spellings are accepted too.
 */
import { TransformOptionsError } from '../errors.js';

export type Options = Record<string, unknown>;

function snake(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class OptionReader {
  private readonly values = new Map<string, unknown>();

  constructor(
    readonly transform: string,
    raw: unknown,
    allowed: readonly string[],
  ) {
    if (raw === undefined || raw === null) return;
    if (!isRecord(raw)) throw new TransformOptionsError(transform, 'options must be a mapping');
    const allow = new Set(allowed);
    for (const [k, v] of Object.entries(raw)) {
      const name = snake(k);
      if (!allow.has(name)) {
        throw new TransformOptionsError(transform, `unknown option '${k}'`, {
          option: k,
          allowed: [...allowed],
        });
      }
      this.values.set(name, v);
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  raw(name: string): unknown {
    return this.values.get(name);
  }

  fail(name: string, expected: string): never {
    throw new TransformOptionsError(this.transform, `option '${name}' must be ${expected}`, { option: name });
  }

  bool(name: string, def: boolean): boolean {
    const v = this.values.get(name);
    if (v === undefined) return def;
    if (typeof v !== 'boolean') this.fail(name, 'a boolean');
    return v;
  }

  num(name: string, def: number, min = Number.NEGATIVE_INFINITY): number {
    const v = this.values.get(name);
    if (v === undefined) return def;
    if (typeof v !== 'number' || Number.isNaN(v) || v < min) this.fail(name, `a number >= ${min}`);
    return v;
  }

  optNum(name: string, def: number | null, min = Number.NEGATIVE_INFINITY): number | null {
    const v = this.values.get(name);
    if (v === undefined) return def;
    if (v === null) return null;
    if (typeof v !== 'number' || Number.isNaN(v) || v < min) this.fail(name, `a number >= ${min} or null`);
    return v;
  }

  str<T extends string>(name: string, def: T, choices?: readonly T[]): T {
    const v = this.values.get(name);
    if (v === undefined) return def;
    if (typeof v !== 'string') this.fail(name, 'a string');
    if (choices && !choices.includes(v as T)) this.fail(name, `one of ${choices.join(', ')}`);
    return v as T;
  }

  optStr(name: string): string | null {
    const v = this.values.get(name);
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') this.fail(name, 'a string');
    return v;
  }

  strList(name: string, def: readonly string[]): string[] {
    const v = this.values.get(name);
    if (v === undefined || v === null) return [...def];
    if (typeof v === 'string') return [v];
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) this.fail(name, 'a list of strings');
    return [...(v as string[])];
  }

  list(name: string): unknown[] {
    const v = this.values.get(name);
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) this.fail(name, 'a list');
    return v;
  }

  record(name: string): Record<string, unknown> {
    const v = this.values.get(name);
    if (v === undefined || v === null) return {};
    if (!isRecord(v)) this.fail(name, 'a mapping');
    return v;
  }
}
