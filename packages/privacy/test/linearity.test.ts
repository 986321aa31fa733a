/**
 * No built-in pattern may take more than linear time in its input: one long string must not
 * stall the server. Speed itself is measured in bench/detectors.ts; these tests check what can
 * be checked without a clock:
 *
 * - every detector runs over 200 KB adversarial inputs (runs of what the patterns anchor on
 *   and loop on) and still reports exactly what it reports in a short text. Before the fix,
 *   one such input kept `url_credentials` busy for tens of seconds; the tests yield between
 *   inputs so that the suite's timeout ends a run that has regressed instead of waiting for it;
 * - the patterns rewritten for speed report the same spans as the patterns they replace, over
 *   thousands of short generated strings (where the old ones are fast);
 * - user regexes (custom detectors, `sanitize` extra patterns) scanned in windows find what a
 *   scan of the whole string finds.
 */
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL_UNITS, hintLine, repeatTo } from '../bench/adversarial.js';
import { DetectorSet } from '../src/detectors/scan.js';
import { WINDOW_LIMIT, WINDOW_MARGIN, WINDOW_STEP } from '../src/detectors/windows.js';
import {
  buildPipeline,
  builtinDetectors,
  compileCustomDetector,
  type Detector,
  detectSpans,
  UntrustedTextGuard,
} from '../src/index.js';
import { compileInjectionPatterns, looksLikeInjection } from '../src/transforms/injection.js';
import { normalizeKey } from '../src/util/keys.js';
import { DETECTOR_EXAMPLES } from './corpus/examples.js';
import { ctx, STANDARD_STRATEGIES } from './helpers.js';

const SIZE = 200_000;
const all = builtinDetectors();
const byName = (name: string): Detector => all.find((d) => d.name === name)!;
const HINTS = hintLine(all.flatMap((d) => d.hints));
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One realistic finding for every built-in detector, each on its own line. */
const NEEDLES = [
  'see cloudg://assets/web-1/neighbors',
  '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
  'redis://default:pa55word99@cache.internal/0',
  'Server=db;Password=S3cr3t!x;',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  '{"client_secret": "zq81Lm2Xp0"}',
  'Authorization: Bearer abcdefghijklmnop1234',
  `ghp_${'a1B2'.repeat(9)}`,
  'xoxb-1234567890-abcdefghij',
  'AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0',
  'sk_live_x1x1x1x1x1x1x1x1x1x1',
  'https://a.blob.core.windows.net/c?sv=2020&sig=AbCdEf0123456789%2BxyzQQ',
  `key ${'Ab1+'.repeat(21)}Xy==`,
  'Qm9vb3RzdHJhcEtleTEyMzQ1Njc4OTBhYmNkZWZn',
  'AKIAIOSFODNN7EXAMPLE AROAJ2UCCR6DPCEXAMPLE',
  'arn:aws:iam::123456789012:role/deploy o-a1b2c3d4e5',
  '/subscriptions/1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d/resourceGroups/prod-rg',
  'projects/acme-prod-1/topics/orders',
  'tenant_id: 9f86d081-884c-4d63-9a2b-1c5e3f0a7b21',
  'https://alice@git.example.com/repo',
  'mail alice@example.com',
  'account 123456789012 request 3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  'fe80::1 10.0.1.5/24 00:1a:2b:3c:4d:5e',
  'db1.prod.corp.com at 2024-05-01T12:30:00Z',
  // The provider and password detectors (issue 11).
  ...DETECTOR_EXAMPLES.map(([, text]) => text),
].join('\n');

type Found = Array<[string, string]>;
const describeSpans = (text: string, set: DetectorSet, upTo: number): Found =>
  set
    .scan(text)
    .filter((s) => s.end <= upTo)
    .map((s) => [s.detector.name, text.slice(s.start, s.end)]);

/** Adversarial inputs for the tests: the ones that reach every loop of every pattern. */
const UNITS = [
  'a- run',
  '. run',
  '- run',
  'a. run',
  'a_ run',
  'scheme chars',
  'https:// repeated',
  'https://u: repeated',
  'URL near-miss (no @)',
  'password: " repeated',
  'a-password repeated',
  'password= repeated',
  'eyJ repeated',
  'JWT near-miss',
  '-----BEGIN A repeated',
  '@ run',
  'a@b. repeated',
  'e-mail dotted domain',
  'digit run',
  'hex run',
  'base64 run',
  'space run',
  'sk repeated',
  'ghp_ near-miss',
  'AKIA near-miss',
  'arn:aws-a-a repeated',
  'projects/ then digits',
  'IPv6 near-miss',
  'hostname near-miss',
  'com. repeated',
  'timestamp fraction',
  'long labels',
  '1: run',
  'glpat- repeated',
  'gitlab routable near-miss',
  'OpenAI near-miss',
  'sk-ant- repeated',
  'Slack webhook repeated',
  'Discord bot near-miss',
  ':AA repeated',
  'ABSK near-miss',
  'bedrock-api-key- repeated',
  'Q~ run',
  'ops_eyJ repeated',
  'labelled near-miss',
  '"auth": " repeated',
  'nuget config repeated',
  'curl -u repeated',
  '--a-b- repeated',
  'password is repeated',
  'password for repeated',
  'mysql -p repeated',
];
const HEADS: Array<[string, string]> = [
  ['https://', 'a.'],
  ['password: "', 'a'],
  ['x@', 'a.'],
  ['cloudg://assets/', '.'],
  ['arn:aws:s3:::', ':'],
  ['-----BEGIN RSA PRIVATE KEY-----', 'A'],
  ['glpat-', 'a-'],
  ['sk-proj-', 'a'],
  ['ABSK', 'Ab1+'],
  ['datadog: ', ' '],
  ['password is ', 'a'],
  ['curl -u ', 'a'],
];
const inputs: Array<[string, string]> = [
  ...UNITS.map((name): [string, string] => [name, repeatTo(ADVERSARIAL_UNITS[name]!, SIZE)]),
  ...HEADS.map(([head, run]): [string, string] => [`${head} + ${run}`, head + repeatTo(run, SIZE)]),
];

describe('built-in detectors on 200 KB adversarial inputs', () => {
  it('covers every built-in detector with a needle', () => {
    const set = new DetectorSet(all);
    const names = new Set(describeSpans(NEEDLES, set, NEEDLES.length).map(([name]) => name));
    expect([...names].sort()).toEqual(all.map((d) => d.name).sort());
  });

  // Every built-in detector (well over a hundred now) over every 200 KB input: about 10 s on a
  // quiet machine, over 20 s under a loaded CI run. The longer bound keeps the suite deterministic;
  // a quadratic pattern still shows as one input taking minutes, and the detector bench prints
  // each detector's worst ms/MB.
  it('reports the short findings unchanged after every long adversarial run', async () => {
    const set = new DetectorSet(all);
    const expected = describeSpans(NEEDLES, set, NEEDLES.length);
    for (const [name, run] of inputs) {
      const text = `${NEEDLES}\n\n${run}${HINTS}`;
      expect([name, describeSpans(text, set, NEEDLES.length)]).toEqual([name, expected]);
      await tick();
    }
  }, 120_000);

  it('finds what it should inside the long runs', async () => {
    const one = (name: string, text: string) =>
      detectSpans(text, [byName(name)]).map((s) => text.slice(s.start, s.end));
    const dots = repeatTo('a.b-', SIZE);
    expect(one('url_credentials', `${dots}https://u:hunter2hunter2@h`)).toEqual(['hunter2hunter2']);
    expect(one('url_userinfo', `${dots}https://alice@h`)).toEqual(['alice']);
    await tick();
    expect(one('secret_assignment', `${repeatTo('-', SIZE)}db_password=hunter22`)).toEqual(['hunter22']);
    expect(one('secret_assignment', `password: "${repeatTo('a', SIZE)}`)).toEqual([]);
    await tick();
    // An unterminated key block runs to the end of the text, however long.
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${repeatTo('Ab1+', SIZE)}`;
    expect(one('private_key', pem)).toEqual([pem]);
  });
});

describe('patterns rewritten for linear time report what the old ones did', () => {
  // The patterns as they were: quadratic on long runs, fast on these short strings.
  const OLD: Record<string, string> = {
    url_credentials: '\\b[a-z][a-z0-9+.-]*://[^\\s:/@]+:([^\\s/@]+)@',
    url_userinfo: '\\b[a-z][a-z0-9+.-]*://([^\\s:/@]+)@',
    // With this additions (not after `:` or `/`, JSON-escaped quotes), which do not
    // change the shape of the search.
    secret_assignment:
      '(?<![A-Za-z0-9])[A-Za-z0-9_.-]*?(?<![:/])(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token|token|bearer|private[_-]?key)\\\\?["\']?[ \\t]*[:=][ \\t]*(?:\\\\?"([^"\\\\\\n]{4,})\\\\?"|\'([^\'\\n]{4,})\'|([^\\s"\',;{}\\\\]{4,}))',
    // `=` may end the gap before the key (`AWS_SECRET_ACCESS_KEY=...` in a shell or .env line).
    aws_secret_access_key:
      '(?:aws[\\w .-]{0,20}?secret|secret[_ .-]?(?:access[_ .-]?)?key|(?<![a-z])sk(?![a-z]))[\\w "\'\\\\:=-]{0,20}?(?<![A-Za-z0-9/+])([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])',
  };
  const TOKENS: Record<string, string[]> = {
    url_credentials: [
      'a',
      'B',
      '1',
      '.',
      '+',
      '-',
      ':',
      '/',
      '@',
      ' ',
      '_',
      '"',
      'https://',
      '://',
      'u:pw@',
      'x:',
    ],
    secret_assignment: [
      'password',
      'pwd',
      'token',
      'api_key',
      'api-key',
      'secret',
      'Bearer',
      'x',
      'A1',
      '_',
      '.',
      '-',
      ':',
      '=',
      ' ',
      '\t',
      '"',
      "'",
      ',',
      '\n',
      'null',
      'abcd',
      '\\',
      '\\"',
      'arn:',
      '/',
    ],
    aws_secret_access_key: [
      'aws',
      'AWS_',
      'sk',
      'secret',
      ' ',
      '_',
      '=',
      ':',
      '"',
      "'",
      '-',
      '.',
      'x',
      '/',
      'A'.repeat(40),
      'b'.repeat(39),
      'Cd'.repeat(20),
      // Keys must now look random (a placeholder such as 'A' x 40 is not one).
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'fgGm7E8yBwCe4sVvBNrB3Oe96qgq7OVgrSJDsFC9',
      '2xbtCB8RU2d8gVnIwkFeyTujOQw5H/qkG6rDzN2Z',
      'key',
      'access_',
      '\\',
      'SecretAccessKey',
      'aws_secret_access_key',
    ],
  };
  TOKENS.url_userinfo = [...TOKENS.url_credentials!, 'alice@'];

  /** A deterministic generator (mulberry32) of strings of up to 14 tokens. */
  function* strings(tokens: string[], count: number): Generator<string> {
    let seed = 12345;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    for (let i = 0; i < count; i++) {
      let s = '';
      const n = 1 + Math.floor(rand() * 14);
      for (let j = 0; j < n; j++) s += tokens[Math.floor(rand() * tokens.length)];
      yield s;
    }
  }

  for (const name of Object.keys(OLD)) {
    it(name, () => {
      const now = byName(name);
      // The reference reports exact group positions (`d` flag); the built-in finds them by text.
      const old: Detector = { ...now, pattern: new RegExp(OLD[name]!, `${now.pattern.flags}d`) };
      let matched = 0;
      for (const text of strings(TOKENS[name]!, 4000)) {
        const spans = (d: Detector) => detectSpans(text, [d]).map((s) => [s.start, s.end, s.entity]);
        const expected = spans(old);
        if (expected.length) matched++;
        expect([text, spans(now)]).toEqual([text, expected]);
      }
      // The generated strings exercise matches, not only misses.
      expect(matched).toBeGreaterThan(30);
    });
  }

  it('the injection tags', () => {
    const patterns = compileInjectionPatterns();
    const old = [
      /<\s*\/?\s*(?:system|assistant|user|tool_call|tool_use|tool|instructions?|function_call|functions|admin|developer)\s*>/is,
      /\[\s*\/?\s*(?:INST|SYS)\s*\]/is,
    ];
    const tokens = ['<', '[', ' ', '\t', '\n', '/', '//', 'system', 'user', 'INST', 'sys', '>', ']', 'x'];
    let flagged = 0;
    for (const text of strings(tokens, 4000)) {
      const expected = old.some((re) => re.test(text));
      if (expected) flagged++;
      // Other heuristics never fire on these tokens, so the whole set must agree with the two.
      expect([text, looksLikeInjection(text, patterns)]).toEqual([text, expected]);
    }
    expect(flagged).toBeGreaterThan(30);
  });
});

describe('sanitize on 200 KB adversarial inputs', () => {
  it('flags a tag after a long run of spaces, and only then', async () => {
    const guard = new UntrustedTextGuard({ on_suspicious: 'flag' });
    const suspicious = (text: string) => {
      const c = ctx();
      guard.apply({ d: text }, c);
      return c.report.untrusted?.suspicious ?? 0;
    };
    const spaces = ' '.repeat(SIZE);
    expect(suspicious(`<${spaces}`)).toBe(0);
    await tick();
    expect(suspicious(`<${spaces}/ system>`)).toBe(1);
    await tick();
    expect(suspicious(`[${spaces}INST]`)).toBe(1);
    await tick();
    expect(suspicious(`[${spaces}`)).toBe(0);
  });

  it('runs the standard output pipeline over a long adversarial string', async () => {
    const pipeline = buildPipeline([
      { type: 'sanitize', options: { on_suspicious: 'fence', max_free_text: 2000 } },
      { type: 'redact', options: { strategies: STANDARD_STRATEGIES } },
      { type: 'project', options: { max_string: 20000, max_chars: 120000 } },
    ]);
    const text = `${repeatTo('a.b-', SIZE)} https://u:hunter2hunter2@h ${repeatTo('-', SIZE)} password=hunter22`;
    const { value, report } = pipeline.run({ query: text });
    expect((value as { query: string }).query.length).toBeLessThan(20_100);
    // The URL password, and `password=` (connection_string_secret, listed first, wins the tie).
    expect(report.redacted).toEqual({ password: 2 });
  });
});

describe('user regexes run in windows', () => {
  /** What a plain global scan of the whole string reports. */
  const plain = (source: string, flags: string, text: string): Array<[number, string]> =>
    [...text.matchAll(new RegExp(source, `g${flags}`))]
      .filter((m) => m[0].length > 0)
      .map((m) => [m.index!, m[0]]);
  const windowed = (source: string, flags: string, text: string): Array<[number, string]> =>
    detectSpans(text, [
      compileCustomDetector({ name: 'custom', pattern: source, flags: flags ? [flags] : [] }),
    ]).map((s) => [s.start, text.slice(s.start, s.end)]);

  it('find what a scan of the whole string finds, across window edges', () => {
    expect(WINDOW_LIMIT).toBe(WINDOW_STEP + 2 * WINDOW_MARGIN);
    // Tickets every 997 characters land on, before and after every window edge.
    let text = '';
    for (let i = 0; text.length < 60_000; i++)
      text += `${'x '.repeat(498)}${i % 2 ? 'SECOPS' : 'INFRA'}-${i}`;
    const cases: Array<[string, string]> = [
      ['\\b(?:SECOPS|INFRA)-\\d{2,6}\\b', ''],
      ['(?<=SECOPS-)\\d+', ''],
      ['x (?:x )+I', ''],
      ['^x x', ''],
      ['^x x', 'm'],
      ['\\d+$', ''],
      ['(?:x ){300}S', ''],
    ];
    for (const [source, flags] of cases) {
      expect([source, windowed(source, flags, text)]).toEqual([source, plain(source, flags, text)]);
    }
  });

  it('continue after a match that crosses into the next window', () => {
    // Matches of 700 characters, one every 900: many straddle an edge; none is found twice.
    const text = repeatTo(`${'y'.repeat(700)}${'-'.repeat(200)}`, 50_000);
    expect(windowed('y+', '', text)).toEqual(plain('y+', '', text));
    expect(windowed('y{10}', '', text)).toEqual(plain('y{10}', '', text));
  });

  it('apply to sanitize extra patterns', () => {
    const guard = new UntrustedTextGuard({ extra_patterns: ['pay\\s+me'], on_suspicious: 'flag' });
    const c = ctx();
    guard.apply({ d: `${repeatTo('z ', SIZE)}please PAY   me now` }, c);
    expect(c.report.untrusted?.suspicious).toBe(1);
  });
});

describe('key normalisation on hostile keys', () => {
  it('splits acronyms as before and reads a 200,000-capital key in one pass', () => {
    expect(normalizeKey('HTTPServerURL')).toBe('http_server_url');
    expect(normalizeKey('ABCDef')).toBe('abc_def');
    expect(normalizeKey('SecretAccessKey')).toBe('secret_access_key');
    const key = 'A'.repeat(200_000);
    expect(normalizeKey(key)).toBe('a'.repeat(200_000));
  });
});
