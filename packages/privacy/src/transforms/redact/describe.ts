/**
 * Listing detectors and key rules with the strategy a redactor gives each (section 12.4), so a
 * policy author can see what will happen before running anything.
 */
import type { RedactionPlan } from './plan.js';

export interface DetectorListing {
  name: string;
  entity: string;
  category: string;
  confidence: number;
  strategy: string;
  /** Strategies of the refined entities, for detectors that refine (the IP detectors). */
  refined?: Record<string, string>;
  active: boolean;
  builtin: boolean;
}

export interface KeyRuleListing {
  name: string;
  entity: string;
  category: string;
  key_pattern: string;
  strategy: string;
  active: boolean;
}

export interface DetectorsDescription {
  detectors: DetectorListing[];
  key_rules: KeyRuleListing[];
}

export interface DescribeFilter {
  category?: string;
  /** Only active detectors and rules. */
  activeOnly?: boolean;
}

export function describePlan(plan: RedactionPlan, filter: DescribeFilter = {}): DetectorsDescription {
  const detectors: DetectorListing[] = [];
  for (const p of plan.detectors) {
    const d = p.detector;
    if (filter.category && d.category !== filter.category) continue;
    if (filter.activeOnly && !p.active) continue;
    const item: DetectorListing = {
      name: d.name,
      entity: d.entity,
      category: d.category,
      confidence: d.confidence,
      strategy: p.base.kind,
      active: p.active,
      builtin: d.builtin,
    };
    const refined = d.entities.filter((e) => e !== d.entity);
    if (refined.length) {
      item.refined = Object.fromEntries(
        refined
          .filter((e) => e.endsWith('_ip'))
          .concat(refined.filter((e) => !e.endsWith('_ip')))
          .map((e) => [e, p.byEntity.get(e)?.kind ?? 'keep']),
      );
    }
    detectors.push(item);
  }
  const key_rules: KeyRuleListing[] = [];
  for (const r of plan.rules) {
    if (filter.category && r.rule.category !== filter.category) continue;
    if (filter.activeOnly && !r.active) continue;
    key_rules.push({
      name: r.rule.name,
      entity: r.rule.entity,
      category: r.rule.category,
      key_pattern: r.rule.pattern.source,
      strategy: r.strategy.kind,
      active: r.active,
    });
  }
  return { detectors, key_rules };
}
