/**
 * `list_detectors` (section 12.4): the content detectors and key rules, with the strategy the
 * caller's generic pipeline gives each. Without a redact step nothing is redacted, so the plain
 * catalogue is listed with no strategy attached.
 */
import type {
  CatalogueDetector,
  KeyRuleDescription,
  PlannedDetector,
  PolicyDetectors,
  Principal,
} from '@cloudg/core';
import {
  builtinKeyRules,
  compileCustomDetectors,
  type Detector,
  defaultDetectors,
  Redactor,
} from '@cloudg/privacy';
import type { IntrospectionHost } from './host.js';

/**
 * The detectors a redactor would start from (built-ins plus those registered in code, as
 * `defaultDetectors` gives them) with the policy's custom detectors laid over them.
 */
function catalogue(host: IntrospectionHost): Detector[] {
  const all = defaultDetectors();
  for (const custom of compileCustomDetectors(host.config.detectors)) {
    const at = all.findIndex((d) => d.name === custom.name);
    if (at === -1) all.push(custom);
    else all[at] = custom;
  }
  return all;
}

function withoutRedactor(host: IntrospectionHost, category: string | undefined): PolicyDetectors {
  const disabled = new Set(host.config.disabled_detectors);
  const detectors: CatalogueDetector[] = catalogue(host)
    .filter((d) => category === undefined || d.category === category)
    .map((d) => ({
      name: d.name,
      entity: d.entity,
      category: d.category,
      confidence: d.confidence,
      description: d.description ?? null,
      enabled: d.enabled && !disabled.has(d.name),
    }));
  const key_rules: KeyRuleDescription[] = builtinKeyRules()
    .filter((r) => category === undefined || r.category === category)
    .map((r) => ({ name: r.name, entity: r.entity, category: r.category, key_pattern: r.pattern.source }));
  return { policy: host.name, detectors, key_rules };
}

export function listDetectors(
  host: IntrospectionHost,
  principal: Principal,
  category?: string,
): PolicyDetectors {
  // The first redact step sees the data first; its strategies are the ones that take effect.
  const redactor = host
    .genericPipeline(principal)
    .pipeline.transforms.find((t): t is Redactor => t instanceof Redactor);
  if (!redactor) return withoutRedactor(host, category);
  const listing = redactor.describe(category === undefined ? {} : { category });
  const detectors: PlannedDetector[] = listing.detectors.map(({ builtin: _builtin, ...d }) => d);
  // A rule whose strategy is `keep` is inactive; the listing says so through the strategy alone.
  const key_rules: KeyRuleDescription[] = listing.key_rules.map(({ active: _active, ...r }) => r);
  return { policy: host.name, detectors, key_rules };
}
