/**
 * The detector corpus (test/corpus/README.md) through the standard pipeline: the floor below
 * which a change to the detectors fails. bench/recall.ts prints the figures per family; the
 * targets are higher (recall 98%, false positives 5%) than what fails here (95%, 10%).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { groupBy, measure, NEAR_MISSES, rate, SECRETS } from './corpus/measure.js';

describe('the detector corpus through the standard pipeline', () => {
  const { secrets, nearMisses } = measure();

  it('is as large as the issue asks: 150 secrets of 60 types, 50 near-misses', () => {
    expect(SECRETS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(SECRETS.map((s) => s.type)).size).toBeGreaterThanOrEqual(60);
    expect(NEAR_MISSES.length).toBeGreaterThanOrEqual(50);
    const kinds = groupBy(NEAR_MISSES, (n) => n.kind);
    expect(kinds.get('cloud_value')?.length ?? 0).toBeGreaterThanOrEqual(20);
    expect(kinds.get('placeholder')?.length ?? 0).toBeGreaterThanOrEqual(20);
    for (const s of SECRETS)
      expect([s.type, s.text.includes(s.secret), s.source !== '']).toEqual([s.type, true, true]);
  });

  it('hides at least 95% of the secrets, in plain lines and inside JSON strings', () => {
    const missed = secrets.filter((o) => !o.caught).map((o) => `${o.entry.type} (${o.placement})`);
    expect(rate(secrets, (o) => o.caught).rate, missed.join(', ')).toBeGreaterThanOrEqual(0.95);
  });

  it('redacts or masks at most 10% of the near-misses', () => {
    const flagged = nearMisses.filter((o) => o.flagged).map((o) => `${o.entry.text} (${o.placement})`);
    expect(rate(nearMisses, (o) => o.flagged).rate, flagged.join(' | ')).toBeLessThanOrEqual(0.1);
  });

  it('measures the transforms the standard profile lists', () => {
    // packages/policy owns the profile; the corpus must follow it (measure.ts copies it).
    const profile = readFileSync(new URL('../../policy/profiles/standard.yaml', import.meta.url), 'utf8');
    for (const line of [
      'on_suspicious: fence',
      'max_free_text: 2000',
      'secret: redact',
      'private_key: drop',
      'credential: { strategy: mask, keep_first: 4, keep_last: 4 }',
      'exclude: ["**.raw_data", "**._raw"]',
      'max_string: 20000',
      'max_chars: 120000',
      '- type: annotate',
    ]) {
      expect(profile).toContain(line);
    }
  });
});
