/** @isolated it registers detectors in the process-wide registry. */
import { describe, expect, it } from 'vitest';
import {
  AliasMap,
  buildPipeline,
  buildTransform,
  compileCustomDetector,
  DetectorConfigError,
  IDENTITY,
  Redactor,
  registerTransform,
  type Transform,
  TransformOptionsError,
  TransformSpecError,
  transformTypes,
  UnknownTransformError,
} from '../src/index.js';
import { normalizeSpec } from '../src/pipeline/spec.js';
import { ctx, STANDARD_STRATEGIES, STRICT_STRATEGIES, testVault } from './helpers.js';

describe('transform specs (10.1)', () => {
  it('accepts a name, a mapping with type/transform/name, an id and inline options', () => {
    expect(normalizeSpec('sanitize')).toEqual({ type: 'sanitize', id: 'sanitize', options: {} });
    expect(
      normalizeSpec({ type: 'redact', id: 'secrets-only', options: { strategies: { secret: 'redact' } } }),
    ).toEqual({
      type: 'redact',
      id: 'secrets-only',
      options: { strategies: { secret: 'redact' } },
    });
    expect(normalizeSpec({ type: 'project', max_list: 50 })).toEqual({
      type: 'project',
      id: 'project',
      options: { max_list: 50 },
    });
    expect(normalizeSpec({ transform: 'DLP' }).type).toBe('redact');
    expect(normalizeSpec({ name: 'Reject-Secrets' }).type).toBe('guard_secrets');
  });

  it.each([
    ['sanitise', 'sanitize'],
    ['untrusted_text', 'sanitize'],
    ['redaction', 'redact'],
    ['redactor', 'redact'],
    ['projection', 'project'],
    ['shape', 'project'],
    ['annotations', 'annotate'],
    ['annotator', 'annotate'],
    ['substitution', 'substitute'],
    ['aliases', 'alias'],
    ['rename', 'rename_keys'],
    ['templates', 'template'],
    ['depseudonymise', 'depseudonymize'],
    ['depseudonymizer', 'depseudonymize'],
    ['secret_guard', 'guard_secrets'],
    ['regex-replace', 'regex_replace'],
  ])('alias %s builds %s', (alias, type) => {
    expect(buildTransform(alias).name).toBe(type);
  });

  it('refuses unknown transform names with a clear error', () => {
    expect(() => buildPipeline(['sanitize', 'scramble'])).toThrow(UnknownTransformError);
    try {
      buildTransform({ type: 'scramble' });
    } catch (err) {
      const e = err as UnknownTransformError;
      expect(e.message).toBe("Unknown transform type 'scramble'");
      expect(e.code).toBe('unknown_transform');
      expect(e.data.known).toContain('redact');
    }
  });

  it('refuses specs without a type and unknown options', () => {
    expect(() => buildTransform({ id: 'x' })).toThrow(TransformSpecError);
    expect(() => buildTransform({ type: 'project', options: { max_lsit: 3 } })).toThrow(
      "Bad options for transform 'project': unknown option 'max_lsit'",
    );
    expect(() => buildTransform({ type: 'project', options: { max_list: 'many' } })).toThrow(
      TransformOptionsError,
    );
  });

  it('registers custom transforms', () => {
    class Upper implements Transform {
      readonly name = 'upper';
      constructor(readonly id: string) {}
      apply(value: unknown) {
        return typeof value === 'string' ? value.toUpperCase() : value;
      }
    }
    registerTransform('upper', (_o, _b, id) => new Upper(id), { aliases: ['shout'] });
    expect(transformTypes()).toContain('upper');
    expect(buildPipeline(['sanitize', 'SHOUT']).run('hello').value).toBe('HELLO');
  });
});

describe('pipelines', () => {
  const vault = testVault();
  const standard = [
    { type: 'sanitize', options: { on_suspicious: 'fence', max_free_text: 2000 } },
    { type: 'redact', options: { strategies: STANDARD_STRATEGIES } },
    {
      type: 'project',
      options: { exclude: ['**.raw_data', '**._raw'], max_string: 20000, max_chars: 120000 },
    },
    { type: 'annotate' },
  ];

  it('an empty spec list is the shared identity pipeline', () => {
    expect(buildPipeline([])).toBe(IDENTITY);
    const v = { a: 1 };
    expect(IDENTITY.run(v)).toEqual({ value: v, report: {} });
  });

  it('runs the standard pipeline with one report holding counts and labels, never values', () => {
    const input = {
      instance_type: 't3.large',
      user_data: 'export DB_PASSWORD=hunter2',
      private_ip: '10.0.1.5',
      db_password: 'hunter2-prod',
      AccessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      raw_data: { big: true },
      key: '-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----',
    };
    const { value, report } = buildPipeline(standard, { vault, profile: 'standard' }).run(input, {
      kind: 'tool',
      name: 'get_asset_metadata',
      sensitivity: 'restricted',
    });
    expect(value).toEqual({
      instance_type: 't3.large',
      user_data: '[REDACTED:sensitive_field]',
      private_ip: '10.0.1.5',
      db_password: '[REDACTED:sensitive_field]',
      AccessKeyId: 'AKIA************MPLE',
    });
    expect(report.redacted).toEqual({ sensitive_field: 2 });
    expect(report.masked).toEqual({ aws_access_key_id: 1 });
    expect(report.dropped).toEqual({ private_key: 1 });
    expect(report.projection).toEqual({ excluded: 1 });
    expect(report.content_annotations).toEqual({ audience: ['user'], priority: 0.75 });
    expect(Object.keys(report).sort()).toEqual([
      'annotations',
      'content_annotations',
      'dropped',
      'masked',
      'projection',
      'redacted',
    ]);
    const text = JSON.stringify(report);
    for (const secret of ['hunter2', 'AKIAIOSFODNN7EXAMPLE', 'MIIEabc', '10.0.1.5'])
      expect(text).not.toContain(secret);
  });

  it('knows when the input side needs a depseudonymiser and which alias tables to reverse', () => {
    expect(buildPipeline(standard).needsDepseudonymizer()).toBe(true); // fence mode
    expect(
      buildPipeline([
        { type: 'redact', options: { strategies: STANDARD_STRATEGIES } },
      ]).needsDepseudonymizer(),
    ).toBe(false);
    expect(
      buildPipeline([{ type: 'redact', options: { strategies: STRICT_STRATEGIES } }]).needsDepseudonymizer(),
    ).toBe(true);
    const p = buildPipeline([
      { type: 'substitute', options: { aliases: { a: 'b' } } },
      { type: 'alias', options: { aliases: { c: 'd' } } },
    ]);
    expect(p.needsDepseudonymizer()).toBe(true);
    expect(p.aliasMaps()).toHaveLength(2);
    expect(p.aliasMaps()[1]).toBeInstanceOf(AliasMap);
  });

  it('passes the policy detectors and disabled detectors to redact and guard_secrets', () => {
    const detectors = [
      {
        name: 'jira_ticket',
        entity: 'ticket_id',
        category: 'internal',
        pattern: '\\b(?:SECOPS|INFRA)-\\d{2,6}\\b',
        hints: ['secops-', 'infra-'],
      },
    ];
    const p = buildPipeline(
      [{ type: 'redact', options: { strategies: { ticket_id: 'hash', email: 'redact' } } }],
      {
        vault,
        detectors,
        disabledDetectors: ['email'],
      },
    );
    const { value, report } = p.run({ tags: { Ticket: 'Opened in SECOPS-4821 by a@b.io' } });
    expect((value as { tags: { Ticket: string } }).tags.Ticket).toMatch(
      /^Opened in ticket_id:[0-9a-f]{12} by a@b\.io$/,
    );
    expect(report.hashed).toEqual({ ticket_id: 1 });
  });
});

describe('custom detectors (12.5)', () => {
  it('compiles a full definition', () => {
    const d = compileCustomDetector({
      name: 'jira_ticket',
      entity: 'ticket_id',
      category: 'internal',
      pattern: '\\b(?:SECOPS|INFRA)-(\\d{2,6})\\b',
      group: 1,
      confidence: 0.9,
      hints: ['SECOPS-', 'infra-'],
      flags: ['ignorecase'],
      validator: 'not_placeholder',
      min_length: 3,
      enabled: true,
    });
    expect(d).toMatchObject({
      name: 'jira_ticket',
      entity: 'ticket_id',
      category: 'internal',
      confidence: 0.9,
      hints: ['secops-', 'infra-'],
    });
    const r = new Redactor({ custom_detectors: [d], strategies: { ticket_id: 'redact' } });
    expect(r.apply('see secops-4821', ctx())).toBe('see secops-[REDACTED:ticket_id]');
  });

  it('defaults entity to the name and category to identifier, and replaces a built-in of the same name', () => {
    const d = compileCustomDetector({ name: 'email', pattern: 'mail:\\w+' });
    expect(d).toMatchObject({ entity: 'email', category: 'identifier', confidence: 0.8, hints: [] });
    const r = new Redactor({
      custom_detectors: [{ name: 'email', pattern: 'mail:\\w+' }],
      strategies: { email: 'redact' },
    });
    expect(r.apply('a@b.io mail:bob', ctx())).toBe('a@b.io [REDACTED:email]');
  });

  it.each([
    [{ pattern: 'x' }, "Invalid custom detector: 'name' is required"],
    [{ name: 'x' }, "Invalid detector 'x': 'pattern' is required"],
    [{ name: 'x', pattern: '(' }, "Invalid detector 'x': the pattern is not a valid regular expression"],
    [{ name: 'x', pattern: 'a', colour: 'red' }, "Invalid detector 'x': unknown option 'colour'"],
    [
      { name: 'x', pattern: '(?P<n>a)' },
      "Invalid detector 'x': named groups are not supported; use numbered groups",
    ],
    [
      { name: 'x', pattern: '(a)', group: 2 },
      "Invalid detector 'x': 'group' 2 does not exist in the pattern (1 groups)",
    ],
    [
      { name: 'x', pattern: 'a', flags: ['unicode_magic'] },
      "Invalid detector 'x': unknown flag 'unicode_magic'",
    ],
    [{ name: 'x', pattern: 'a', validator: 'luhn' }, "Invalid detector 'x': unknown validator 'luhn'"],
    [
      { name: 'x', pattern: 'a', confidence: 2 },
      "Invalid detector 'x': 'confidence' must be a number between 0 and 1",
    ],
    [
      { name: 'x', pattern: 'a', hints: 'x' },
      "Invalid detector 'x': 'hints' must be a list of non-empty strings",
    ],
  ])('refuses %j', (config, message) => {
    expect(() => compileCustomDetector(config)).toThrow(DetectorConfigError);
    expect(() => compileCustomDetector(config)).toThrow(message);
  });

  it('the error never quotes the pattern', () => {
    try {
      compileCustomDetector({ name: 'x', pattern: '(secret-pattern' });
    } catch (err) {
      expect((err as Error).message).not.toContain('secret-pattern');
      expect((err as DetectorConfigError).data.field).toBe('pattern');
    }
  });

  it('supports verbose and inline flags, validators, and disabling', () => {
    const verbose = compileCustomDetector({ name: 'v', pattern: 'ab  # comment\n c', flags: 'x' });
    expect(verbose.pattern.source).toBe('abc');
    expect(compileCustomDetector({ name: 'i', pattern: '(?i)abc' }).pattern.flags).toContain('i');
    const ip = new Redactor({
      custom_detectors: [{ name: 'inet', pattern: 'inet (\\S+)', group: 1, validator: 'ip' }],
      strategies: { inet: 'keep', private_ip: 'redact' },
      disabled_detectors: ['ipv4'],
    });
    expect(ip.apply('inet 10.0.0.1 inet 999.1.1.1', ctx())).toBe('inet [REDACTED:private_ip] inet 999.1.1.1');
    const off = new Redactor({
      custom_detectors: [{ name: 't', pattern: 'T-\\d+', enabled: false }],
      strategies: { t: 'redact' },
    });
    expect(off.apply('T-1', ctx())).toBe('T-1');
  });
});

describe('listing detectors and key rules (12.4)', () => {
  it('shows the strategy each detector and key rule gets', () => {
    const r = new Redactor({ strategies: STRICT_STRATEGIES });
    const listing = r.describe({ category: 'network' });
    const ipv4 = listing.detectors.find((d) => d.name === 'ipv4');
    expect(ipv4).toMatchObject({
      name: 'ipv4',
      entity: 'ip_address',
      category: 'network',
      confidence: 0.9,
      strategy: 'pseudonymize',
      active: true,
    });
    expect(ipv4?.refined).toMatchObject({
      private_ip: 'pseudonymize',
      public_ip: 'pseudonymize',
      special_ip: 'keep',
    });
    expect(listing.key_rules).toEqual([
      {
        name: 'hostname_key',
        entity: 'hostname',
        category: 'network',
        key_pattern:
          '^(?:hostname|host_name|dns_name|fqdn|private_dns_name|public_dns_name|domain_name|endpoint_address)$',
        strategy: 'pseudonymize',
        active: true,
      },
    ]);
    const std = new Redactor({ strategies: STANDARD_STRATEGIES }).describe();
    expect(std.detectors.find((d) => d.name === 'uuid')).toMatchObject({ strategy: 'keep', active: false });
    expect(std.key_rules.filter((k) => k.active).map((k) => k.name)).toEqual(['sensitive_key']);
  });
});

describe('registered detectors', () => {
  it('are run by redactors built afterwards, until unregistered', async () => {
    const { registerDetector, unregisterDetector, defaultDetectors } = await import('../src/index.js');
    registerDetector({ name: 'employee_id', category: 'pii', pattern: '\\bEMP-\\d{5}\\b', hints: ['emp-'] });
    expect(defaultDetectors().at(-1)?.name).toBe('employee_id');
    const r = new Redactor({ strategies: { pii: 'redact' } });
    expect(r.apply('by EMP-12345', ctx())).toBe('by [REDACTED:employee_id]');
    expect(() => registerDetector({ name: 'bad', pattern: '(' })).toThrow(DetectorConfigError);
    expect(unregisterDetector('employee_id')).toBe(true);
    expect(new Redactor({ strategies: { pii: 'redact' } }).apply('by EMP-12345', ctx())).toBe('by EMP-12345');
  });
});
