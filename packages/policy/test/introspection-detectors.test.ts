/**
 * `list_detectors` (section 12.4): detectors and key rules with the caller's strategies.
 *
 * @isolated it registers a detector in @cloudg/privacy's process-wide registry.
 */
import { registerDetector, unregisterDetector } from '@cloudg/privacy';
import { describe, expect, it } from 'vitest';
import { load, local } from './helpers.js';
import { ann, lee, privacyLayer } from './introspection.fixtures.js';

describe('list_detectors', () => {
  it('under open lists the credential detector with no strategy attached, and no key rules', async () => {
    const { call } = privacyLayer('open');
    const listing = await call('list_detectors', { category: 'credential' });
    expect(listing).toMatchObject({ policy: 'open', key_rules: [] });
    expect(listing.detectors).toHaveLength(1);
    expect((listing.detectors as unknown[])[0]).toMatchObject({
      name: 'aws_access_key_id',
      entity: 'aws_access_key_id',
      category: 'credential',
      confidence: 0.99,
      description: 'AWS access key IDs (long-term AKIA, temporary ASIA)',
      enabled: true,
    });
    expect((listing.detectors as Record<string, unknown>[])[0]).not.toHaveProperty('strategy');
  });

  it('under open lists key rules by pattern, and custom and disabled detectors as configured', () => {
    const policy = load({
      name: 'open-custom',
      detectors: [
        { name: 'jira_ticket', entity: 'ticket_id', category: 'internal', pattern: '\\bSECOPS-\\d{2,6}\\b' },
      ],
      disabled_detectors: ['hostname'],
    });
    const network = policy.introspection.listDetectors(local, 'network');
    expect((network.detectors as Record<string, unknown>[]).map((d) => [d.name, d.enabled])).toEqual([
      ['ipv6', true],
      ['ipv4', true],
      ['mac_address', true],
      ['hostname', false],
    ]);
    expect(network.key_rules).toEqual([
      {
        name: 'hostname_key',
        entity: 'hostname',
        category: 'network',
        key_pattern:
          '^(?:hostname|host_name|dns_name|fqdn|private_dns_name|public_dns_name|domain_name|endpoint_address)$',
      },
    ]);
    expect(policy.introspection.listDetectors(local, 'internal').detectors).toMatchObject([
      { name: 'jira_ticket', entity: 'ticket_id', category: 'internal', confidence: 0.8, enabled: true },
    ]);
  });

  it('under open also lists detectors registered in code, as the redactor would use them', () => {
    registerDetector({
      name: 'badge_id',
      entity: 'badge_id',
      category: 'internal',
      pattern: '\\bBADGE-\\d{4}\\b',
    });
    try {
      const listing = load({ name: 'open-registered' }).introspection.listDetectors(local, 'internal');
      expect((listing.detectors as Record<string, unknown>[]).map((d) => d.name)).toContain('badge_id');
    } finally {
      unregisterDetector('badge_id');
    }
  });

  it('under strict gives each network detector and key rule its strategy (the 12.4 example)', () => {
    const listing = load('strict').introspection.listDetectors(local, 'network');
    expect(listing.policy).toBe('strict');
    const detectors = listing.detectors as Record<string, unknown>[];
    expect(detectors.find((d) => d.name === 'ipv4')).toEqual({
      name: 'ipv4',
      entity: 'ip_address',
      category: 'network',
      confidence: 0.9,
      strategy: 'pseudonymize',
      refined: {
        private_ip: 'pseudonymize',
        public_ip: 'pseudonymize',
        special_ip: 'keep',
        private_cidr: 'pseudonymize',
        public_cidr: 'pseudonymize',
        special_cidr: 'keep',
      },
      active: true,
    });
    expect(detectors.find((d) => d.name === 'hostname')).toEqual({
      name: 'hostname',
      entity: 'hostname',
      category: 'network',
      confidence: 0.7,
      strategy: 'pseudonymize',
      active: true,
    });
    expect(listing.key_rules).toEqual([
      {
        name: 'hostname_key',
        entity: 'hostname',
        category: 'network',
        key_pattern:
          '^(?:hostname|host_name|dns_name|fqdn|private_dns_name|public_dns_name|domain_name|endpoint_address)$',
        strategy: 'pseudonymize',
      },
    ]);
  });

  it('under standard: secrets redacted, credentials masked, identifiers kept', () => {
    const listing = load('standard').introspection.listDetectors(local);
    const strategy = (name: string) =>
      (listing.detectors as Record<string, unknown>[]).find((d) => d.name === name)?.strategy;
    expect(strategy('jwt')).toBe('redact');
    expect(strategy('private_key')).toBe('drop');
    expect(strategy('aws_access_key_id')).toBe('mask');
    expect(strategy('aws_arn')).toBe('keep');
    const rules = listing.key_rules as Record<string, unknown>[];
    expect(rules.find((r) => r.name === 'sensitive_key')?.strategy).toBe('redact');
    expect(rules.find((r) => r.name === 'account_id_key')?.strategy).toBe('keep');
  });

  it('follows the caller: a soc-analyst analyst pseudonymises identifiers, a lead keeps them', () => {
    const policy = load('soc-analyst');
    const arn = (p: typeof ann) =>
      (policy.introspection.listDetectors(p, 'identifier').detectors as Record<string, unknown>[]).find(
        (d) => d.name === 'aws_arn',
      );
    expect(arn(ann)).toMatchObject({ strategy: 'pseudonymize', active: true });
    expect(arn(lee)).toMatchObject({ strategy: 'keep', active: false });
  });
});
