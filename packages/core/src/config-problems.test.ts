import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { configProblems, formatConfigPath } from './config-problems.js';

describe('configProblems', () => {
  it('lists every problem at its dotted path, unknown keys one by one', () => {
    const schema = z.strictObject({
      roles: z.record(z.string(), z.strictObject({ rate: z.number().min(1) })),
      name: z.string(),
    });
    const result = schema.safeParse({ roles: { analyst: { rate: 0, burst: 2, extra: true } }, name: 7 });
    expect(result.success).toBe(false);
    const problems = configProblems(result.error!);
    expect(problems.map((p) => p.path).sort()).toEqual([
      'name',
      'roles.analyst.burst',
      'roles.analyst.extra',
      'roles.analyst.rate',
    ]);
    expect(problems.find((p) => p.path === 'roles.analyst.burst')?.message).toBe('unknown key');
  });

  it('writes array indexes in brackets', () => {
    expect(formatConfigPath(['aws', 'accounts', 0])).toBe('aws.accounts[0]');
    expect(formatConfigPath([0, 'a'])).toBe('[0].a');
    expect(formatConfigPath([])).toBe('');
  });
});
