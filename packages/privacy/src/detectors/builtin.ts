/**
 * The built-in content detectors, in priority order: when two matches start at the same
 * position, the detector listed first wins.
 *
 * Every pattern takes time linear in the text it scans (bench/detectors.ts measures it, and
 * test/linearity.test.ts runs each over long adversarial inputs). Keep it so: start a pattern
 * at something distinctive (a literal, or a lookbehind that only the first character of a run
 * passes), and never follow an open-ended quantifier with something that can fail and make it
 * give back characters that another attempt, at the next position, reads again.
 */
import { hasBase62Checksum, isJwtHeader, mixedAlphanumeric } from './checks.js';
import { define, notAfter } from './define.js';
import { aiDetectors } from './secrets/ai.js';
import { cloudDetectors } from './secrets/cloud.js';
import { commerceDetectors } from './secrets/commerce.js';
import { devopsDetectors } from './secrets/devops.js';
import { messagingDetectors } from './secrets/messaging.js';
import { observabilityDetectors } from './secrets/observability.js';
import { passwordDetectors } from './secrets/passwords.js';
import { registryDetectors } from './secrets/registries.js';
import type { Detector, Validator } from './types.js';
import {
  entityIf,
  ipValidator,
  ipv6Validator,
  isPlaceholder,
  isPlaceholderToken,
  looksHighEntropy,
  shannonEntropy,
} from './validators.js';

/** Rejects tokens whose part after `prefix` (a regex matched at the start) is a placeholder. */
const realToken = (entity: string, prefix: RegExp, check?: (v: string) => boolean): Validator => {
  return (v) => {
    const head = prefix.exec(v)?.[0] ?? '';
    if (isPlaceholderToken(v.slice(head.length))) return null;
    return check === undefined || check(v) ? entity : null;
  };
};
/** Starts a token: not after a letter or digit (`\b` would refuse `_` and JSON's `\n`). */
const START = notAfter('A-Za-z0-9');
/** A value that points at a secret instead of holding it: a path or a secret's ARN. */
const REFERENCE = /^(?:~?\/[\w.-]|\.\.?\/|file:|arn:aws[\w-]*:(?:secretsmanager|ssm|kms):)/;
/** What a password in a URL cannot contain: quotes and angle brackets end the URL first. */
const NOT_IN_URL_PASSWORD = /["'<>]/;
const password = (entity: string): Validator =>
  entityIf(entity, (v) => !isPlaceholder(v) && !NOT_IN_URL_PASSWORD.test(v));
const assigned = (entity: string): Validator =>
  entityIf(entity, (v) => !isPlaceholder(v) && !REFERENCE.test(v));
/** A path of lower-case segments ending in hex: `com/id/0A1B...` (an EKS OIDC issuer's id). */
const HEX_PATH = /^(?:[a-z0-9.-]*\/)+[0-9a-fA-F]+$/;

/** Content digests that look like secrets: subresource integrity (`sha512-...`) and go.sum (`h1:`). */
const DIGEST_PREFIX = /^(?:sha(?:1|224|256|384|512)-|h1:)/i;
/**
 * A label that says the value after it is a digest: `sha256: ...`, `"CodeSha256": "..."`,
 * `integrity="..."`, `etag: ...`, go.sum's `h1:`. Tested on the 40 characters before a value
 * that passed every other check, which is cheaper than a lookbehind at every run.
 */
const DIGEST_LABEL =
  /(?:(?:sha|md5|digest|checksum|hash|integrity|fingerprint|etag)(?:-?\d{1,3})?\\?["']?[ \t]{0,4}[:=][ \t]{0,4}\\?["']?|\bh1:)$/i;
const afterDigestLabel = (text: string | undefined, start: number | undefined): boolean =>
  text !== undefined && start !== undefined && DIGEST_LABEL.test(text.slice(Math.max(0, start - 40), start));

const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const IP_ENTITIES = ['private_ip', 'public_ip', 'special_ip', 'private_cidr', 'public_cidr', 'special_cidr'];
/**
 * The `://` of a URL whose scheme (`[a-z][a-z0-9+.-]*` after a word boundary) precedes it.
 * The scan stops only at `://` and checks the scheme backwards: a pattern that starts with
 * the scheme tries every word boundary of a long `a.b.c...` run and reads the rest of the run
 * from each, which is quadratic. The backward check reads at most the run since the last
 * `:` or `/`, so every character is read a bounded number of times.
 */
const URL_START = '://(?<=\\b[a-z][a-z0-9+.-]*://)';
/** Characters that end a reference embedded in text (URIs, ARNs, resource ids). */
const REF_TAIL = `[^\\s"'<>()\\[\\]{},;]*[^\\s"'<>()\\[\\]{},;.:]`;
const TLDS = [
  'com',
  'net',
  'org',
  'edu',
  'gov',
  'mil',
  'int',
  'io',
  'co',
  'ai',
  'app',
  'dev',
  'cloud',
  'info',
  'biz',
  'us',
  'uk',
  'de',
  'fr',
  'nl',
  'eu',
  'ca',
  'au',
  'jp',
  'cn',
  'in',
  'br',
  'ch',
  'se',
  'no',
  'es',
  'it',
  'pl',
  'be',
  'at',
  'dk',
  'fi',
  'ie',
  'nz',
  'sg',
  'kr',
  'tech',
  'online',
  'site',
  'internal',
  'local',
  'localdomain',
  'lan',
  'corp',
  'intra',
];

export function builtinDetectors(): Detector[] {
  return [
    define({
      name: 'cloudg_uri',
      entity: 'cloudg_uri',
      category: 'identifier',
      confidence: 0.99,
      pattern: `cloudg://(?:assets|datasets)/${REF_TAIL}`,
      hints: ['cloudg://'],
      minLength: 16,
    }),
    // Secrets.
    define({
      name: 'private_key',
      entity: 'private_key',
      category: 'secret',
      confidence: 1.0,
      pattern:
        '-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)',
      hints: ['private key'],
      minLength: 30,
    }),
    define({
      name: 'jwt',
      entity: 'jwt',
      category: 'secret',
      confidence: 0.95,
      // The signature may be missing (`alg: none`, or cut off): header and claims still leak.
      pattern: `${notAfter('\\w-')}eyJ[A-Za-z0-9_-]{4,}\\.eyJ[A-Za-z0-9_-]{4,}(?:\\.[A-Za-z0-9_-]{8,}|\\.(?![\\w-]))?`,
      hints: ['eyj'],
      minLength: 30,
      // The header must decode to a JSON object with `alg` or `typ`.
      validate: entityIf('jwt', (v) => isJwtHeader(v.slice(0, v.indexOf('.')))),
    }),
    define({
      name: 'url_credentials',
      entity: 'password',
      category: 'secret',
      confidence: 0.95,
      pattern: `${URL_START}[^\\s:/@]+:([^\\s/@]+)@`,
      flags: 'i',
      hints: ['://'],
      group: 1,
      validate: password('password'),
      minLength: 8,
    }),
    define({
      name: 'connection_string_secret',
      entity: 'password',
      category: 'secret',
      confidence: 0.95,
      pattern:
        '(?<![A-Za-z0-9_])(?:password|pwd|accountkey|sharedaccesskey|sharedsecret|clientsecret)=([^;"\'\\s]+)',
      flags: 'i',
      hints: ['password=', 'pwd=', 'accountkey=', 'sharedaccesskey=', 'sharedsecret=', 'clientsecret='],
      group: 1,
      validate: assigned('password'),
      minLength: 8,
    }),
    define({
      name: 'aws_secret_access_key',
      entity: 'aws_secret_access_key',
      category: 'secret',
      confidence: 0.95,
      // The key starts after a character that cannot be part of it, so the gap after the label
      // ends in one of `_ "':=-` (`=` for `AWS_SECRET_ACCESS_KEY=...` in a shell or .env line): a
      // class test instead of a lookbehind at every gap length.
      // Labels: `aws ... secret`, `secret access key` and `secret key` in any spelling
      // (`SecretAccessKey`, `secret_key`, `--secret-access-key`), and `sk`; the gap may hold
      // JSON-escaped quotes.
      pattern:
        '(?:aws[\\w .-]{0,20}?secret|secret[_ .-]?(?:access[_ .-]?)?key|(?<![a-z])sk(?![a-z]))[\\w "\'\\\\:=-]{0,19}?[_ "\'\\\\:=-]([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])',
      flags: 'i',
      hints: ['secret', 'sk'],
      group: 1,
      minLength: 42,
      validate: entityIf('aws_secret_access_key', (v) => !isPlaceholderToken(v) && shannonEntropy(v) >= 3.5),
    }),
    define({
      name: 'secret_assignment',
      entity: 'secret_value',
      category: 'secret',
      confidence: 0.85,
      // Starts at the keyword. An earlier version also matched the name characters before it
      // (`db_` of `db_password`), lazily from every position of the run: quadratic on a long
      // run of `a-a-a-...` or dots, and it never changed what is reported (the value groups).
      // Not after `:` or `/`: `:secret:` inside an ARN names a service, it assigns nothing.
      // Quotes may be JSON-escaped (`\\"password\\": \\"...\\"` in a string that holds JSON).
      pattern:
        '(?<![:/])(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token|token|bearer|private[_-]?key)\\\\?["\']?[ \\t]*[:=][ \\t]*(?:\\\\?"([^"\\\\\\n]{4,})\\\\?"|\'([^\'\\n]{4,})\'|([^\\s"\',;{}\\\\]{4,}))',
      flags: 'i',
      hints: ['pass', 'pwd', 'secret', 'key', 'token', 'bearer'],
      group: [1, 2, 3],
      validate: assigned('secret_value'),
      minLength: 8,
    }),
    define({
      name: 'authorization_header',
      entity: 'secret_value',
      category: 'secret',
      confidence: 0.9,
      pattern: '\\b(?:Bearer|Basic)[ \\t]+([A-Za-z0-9._~+/=-]{16,})',
      flags: 'i',
      hints: ['bearer', 'basic'],
      group: 1,
      minLength: 22,
    }),
    define({
      name: 'github_token',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.99,
      pattern: `${START}(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`,
      hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
      minLength: 40,
      // A valid CRC32 suffix proves a `gh?_` token real; without one it must look random.
      validate: realToken(
        'api_token',
        /^(?:gh[pousr]_|github_pat_)/,
        (v) =>
          v.startsWith('github_pat_') || hasBase62Checksum(v, v.slice(0, 4)) || mixedAlphanumeric(v.slice(4)),
      ),
    }),
    define({
      name: 'slack_token',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.99,
      // Bot, user, app, legacy and configuration tokens. After the type, real tokens go on with
      // the workspace number (`xoxb-1234...`); `xoxb-your-token-here` does not.
      pattern: `${START}(?:xox[aboprse]-[A-Za-z0-9-]{10,}|xapp-\\d-[A-Za-z0-9-]{10,}|xoxe\\.xox[bp]-\\d-[A-Za-z0-9]{100,200})`,
      hints: ['xox', 'xapp-'],
      minLength: 15,
      // A cut or masked token ends in `-`; real ones end in a segment of 8 or more characters.
      validate: realToken(
        'api_token',
        /^(?:xoxe\.xox[bp]|xox[aboprse]|xapp)-/,
        (v) => /^(?:xoxe\.|xapp-|xox[ar]-|xox[a-z]-\d)/.test(v) && v.length - v.lastIndexOf('-') > 8,
      ),
    }),
    define({
      name: 'google_api_key',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.99,
      pattern: `${START}AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])`,
      hints: ['aiza'],
      minLength: 39,
      validate: realToken('api_token', /^AIza/),
    }),
    define({
      name: 'stripe_key',
      entity: 'api_token',
      category: 'secret',
      confidence: 0.99,
      // Secret (`sk_`), restricted (`rk_`) and publishable (`pk_`) keys, and webhook secrets.
      pattern: `${START}(?:[srp]k_(?:live|test|prod)_[0-9A-Za-z]{16,}|whsec_[0-9A-Za-z]{32,})`,
      hints: ['_live_', '_test_', '_prod_', 'whsec_'],
      minLength: 24,
      validate: realToken('api_token', /^(?:[srp]k_[a-z]+_|whsec_)/),
    }),
    // Provider tokens, by family (secrets/*.ts).
    ...cloudDetectors(),
    ...devopsDetectors(),
    ...messagingDetectors(),
    ...commerceDetectors(),
    ...observabilityDetectors(),
    ...registryDetectors(),
    ...aiDetectors(),
    ...passwordDetectors(),
    define({
      name: 'azure_sas_signature',
      entity: 'secret_value',
      category: 'secret',
      confidence: 0.95,
      pattern: '[?&]sig=([A-Za-z0-9%+/=_-]{20,})',
      flags: 'i',
      hints: ['sig='],
      group: 1,
      minLength: 24,
    }),
    define({
      name: 'azure_storage_key',
      entity: 'secret_value',
      category: 'secret',
      confidence: 0.8,
      // Not the base64 of a `sha512-` subresource integrity hash, which has the same length.
      pattern: '(?<![A-Za-z0-9+/])(?<!sha512-)[A-Za-z0-9+/]{86}==(?![A-Za-z0-9+/=])',
      hints: ['=='],
      minLength: 88,
      validate: entityIf('secret_value', (v) => !isPlaceholderToken(v)),
    }),
    define({
      name: 'high_entropy_secret',
      entity: 'secret_value',
      category: 'secret',
      confidence: 0.5,
      // Content digests are not secrets: a run that starts with `sha512-` (lockfile integrity) or
      // `h1:`, or that follows a digest label, is left alone.
      // `=` only as trailing padding, so that `NAME=<token>` is not read as one token.
      pattern: '(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/=_-])',
      validate: (v, text, start) =>
        looksHighEntropy(v) &&
        !DIGEST_PREFIX.test(v) &&
        !HEX_PATH.test(v) &&
        !isPlaceholderToken(v) &&
        !afterDigestLabel(text, start)
          ? 'secret_value'
          : null,
      minLength: 32,
    }),
    // Credentials and identifiers.
    define({
      name: 'aws_access_key_id',
      entity: 'aws_access_key_id',
      category: 'credential',
      confidence: 0.99,
      // Long-term (AKIA) and temporary (ASIA) keys, STS service bearer tokens (ABIA),
      // context-specific credentials (ACCA) and the older A3T prefix; `KEY_AKIA...` too.
      pattern: `${START}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`,
      hints: ['akia', 'asia', 'abia', 'acca', 'a3t'],
      minLength: 20,
      validate: realToken('aws_access_key_id', /^(?:A3T.|A...)/),
    }),
    define({
      name: 'aws_unique_id',
      entity: 'aws_unique_id',
      category: 'identifier',
      confidence: 0.95,
      pattern: '\\b(?:AIDA|AROA|AGPA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16,17}\\b',
      hints: ['aida', 'aroa', 'agpa', 'aipa', 'anpa', 'anva', 'apka'],
      minLength: 20,
    }),
    define({
      name: 'aws_arn',
      entity: 'aws_arn',
      category: 'identifier',
      confidence: 0.99,
      pattern: `\\barn:aws(?:-[a-z]+)*:[a-z0-9-]+:[a-z0-9-]*:(?:\\d{12}|aws)?:${REF_TAIL}`,
      hints: ['arn:aws'],
      minLength: 12,
    }),
    define({
      name: 'aws_organization_id',
      entity: 'aws_organization_id',
      category: 'identifier',
      confidence: 0.9,
      // Organization (o-...) and organizational unit (ou-...) ids, which the original missed.
      pattern: '(?<![\\w-])(?:o-[a-z0-9]{10,32}|ou-[a-z0-9]{4,32}-[a-z0-9]{8,32})(?![\\w-])',
      hints: ['o-'],
      minLength: 6,
    }),
    define({
      name: 'azure_resource_id',
      entity: 'azure_resource_id',
      category: 'identifier',
      confidence: 0.99,
      pattern: `/subscriptions/${GUID}(?:/${REF_TAIL})?`,
      flags: 'i',
      hints: ['/subscriptions/'],
      minLength: 50,
    }),
    define({
      name: 'gcp_resource_name',
      entity: 'gcp_resource_name',
      category: 'identifier',
      confidence: 0.95,
      pattern: `(?://[a-z0-9-]+\\.googleapis\\.com/${REF_TAIL}|(?<![\\w/.-])(?:projects|organizations|folders)/(?:[a-z][a-z0-9-]{4,28}[a-z0-9]|\\d{6,})(?![\\w-])(?:/${REF_TAIL})?)`,
      hints: ['projects/', 'organizations/', 'folders/', 'googleapis.com/'],
      minLength: 14,
    }),
    define({
      name: 'azure_subscription_ref',
      entity: 'azure_subscription_id',
      category: 'identifier',
      confidence: 0.9,
      pattern: `(?:subscription|tenant)[ _-]?id["']?[ \\t]*[:=][ \\t]*["']?(${GUID})(?![\\w-])`,
      flags: 'i',
      hints: ['subscription', 'tenant'],
      group: 1,
      minLength: 40,
    }),
    define({
      name: 'url_userinfo',
      entity: 'url_username',
      category: 'pii',
      confidence: 0.9,
      pattern: `${URL_START}([^\\s:/@]+)@`,
      flags: 'i',
      hints: ['://'],
      group: 1,
      minLength: 8,
    }),
    define({
      name: 'email',
      entity: 'email',
      category: 'pii',
      confidence: 0.95,
      pattern:
        '(?<![\\w.+%-])(?<!//)[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\\.)+[A-Za-z]{2,}(?![\\w-]|\\.[A-Za-z0-9])',
      hints: ['@'],
      minLength: 6,
    }),
    define({
      name: 'aws_account_id',
      entity: 'aws_account_id',
      category: 'identifier',
      confidence: 0.7,
      pattern: '(?<![A-Za-z0-9_/.-])\\d{12}(?![A-Za-z0-9_-]|\\.\\d)',
      validate: entityIf('aws_account_id', (v) => !/^(\d)\1*$/.test(v)),
      minLength: 12,
    }),
    define({
      name: 'uuid',
      entity: 'uuid',
      category: 'identifier',
      confidence: 0.6,
      pattern: `(?<![\\w-])${GUID}(?![\\w-])`,
      hints: ['-'],
      minLength: 36,
    }),
    // Network.
    define({
      name: 'ipv6',
      entity: 'ip_address',
      category: 'network',
      confidence: 0.9,
      pattern:
        '(?<![\\w:.])(?:(?:[0-9a-fA-F]{0,4}:){2,6}\\d{1,3}(?:\\.\\d{1,3}){3}|(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4})(?:/\\d{1,3})?(?![\\w:]|\\.\\d)',
      hints: [':'],
      entities: IP_ENTITIES,
      validate: ipv6Validator,
      minLength: 3,
    }),
    define({
      name: 'ipv4',
      entity: 'ip_address',
      category: 'network',
      confidence: 0.9,
      pattern: '(?<![\\w.])(?:\\d{1,3}\\.){3}\\d{1,3}(?:/\\d{1,2})?(?![\\w/]|\\.\\d)',
      hints: ['.'],
      entities: IP_ENTITIES,
      validate: ipValidator,
      minLength: 7,
    }),
    define({
      name: 'mac_address',
      entity: 'mac_address',
      category: 'network',
      confidence: 0.8,
      pattern: '(?<![\\w:-])[0-9A-Fa-f]{2}([:-])(?:[0-9A-Fa-f]{2}\\1){4}[0-9A-Fa-f]{2}(?![\\w:-])',
      hints: [':', '-'],
      minLength: 17,
    }),
    define({
      name: 'hostname',
      entity: 'hostname',
      category: 'network',
      confidence: 0.7,
      pattern: `(?<![\\w.-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+(?:${TLDS.join('|')})(?![\\w-]|\\.[A-Za-z0-9])`,
      flags: 'i',
      hints: ['.'],
      minLength: 4,
    }),
    // Temporal.
    define({
      name: 'timestamp',
      entity: 'timestamp',
      category: 'temporal',
      confidence: 0.9,
      pattern:
        '(?<![\\w-])\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?(?![\\w:])',
      hints: [':'],
      minLength: 16,
    }),
  ];
}
