/**
 * Package and container registries: npm, PyPI, RubyGems, NuGet, Clojars, crates.io and Docker
 * Hub tokens, and the credentials their client configurations hold (`.npmrc`, `nuget.config`,
 * Docker's `config.json`, Maven's `settings.xml`).
 */
import { hasBase62Checksum, isBasicPair, mixedAlphanumeric } from '../checks.js';
import { define, token } from '../define.js';
import type { Detector } from '../types.js';
import { entityIf, isPlaceholder } from '../validators.js';

export function registryDetectors(): Detector[] {
  return [
    // npm copied GitHub's format: 30 random characters and a CRC32 of them. Without a valid
    // checksum a token must at least mix cases and digits, as random ones do.
    token({
      name: 'npm_token',
      prefix: 'npm_',
      body: '[A-Za-z0-9]{36}',
      hints: ['npm_'],
      minLength: 40,
      confidence: 0.95,
      check: (v) => hasBase62Checksum(v, 'npm_') || mixedAlphanumeric(v.slice(4)),
    }),
    token({
      name: 'pypi_token',
      prefix: 'pypi-AgEIcHlwaS5vcmc|pypi-AgENdGVzdC5weXBpLm9yZw',
      body: '[A-Za-z0-9_-]{50,1000}',
      hints: ['pypi-ageichlwas5vcmc', 'pypi-agendgvzdc5wexbplm9yzw'],
      minLength: 70,
    }),
    token({
      name: 'rubygems_token',
      prefix: 'rubygems_',
      body: '[a-f0-9]{48}',
      hints: ['rubygems_'],
      minLength: 57,
    }),
    // NuGet.org API keys start with `oy2` and are 46 lower-case characters long.
    token({ name: 'nuget_api_key', prefix: 'oy2', body: '[a-z0-9]{43}', hints: ['oy2'], minLength: 46 }),
    token({
      name: 'clojars_token',
      prefix: 'CLOJARS_',
      body: '[a-z0-9]{60}',
      flags: 'i',
      hints: ['clojars_'],
      minLength: 68,
    }),
    token({ name: 'crates_io_token', prefix: 'cio', body: '[A-Za-z0-9]{32}', hints: ['cio'], minLength: 35 }),
    token({
      name: 'docker_hub_token',
      prefix: 'dckr_(?:pat|oat)_',
      body: '[A-Za-z0-9_-]{27,60}',
      hints: ['dckr_pat_', 'dckr_oat_'],
      minLength: 36,
    }),
    // `"auth": "<base64 of user:password>"` in a Docker config.json, plain or JSON-escaped.
    define({
      name: 'docker_config_auth',
      entity: 'password',
      category: 'secret',
      confidence: 0.95,
      pattern: String.raw`\\?"auth\\?"[ \t]*:[ \t]*\\?"([A-Za-z0-9+/]{4,1000}={0,2})(?=\\?")`,
      hints: ['"auth"', 'auth\\"'],
      group: 1,
      minLength: 14,
      validate: entityIf('password', isBasicPair),
    }),
    // `<add key="ClearTextPassword" value="..." />` in nuget.config (and any `Password` key).
    define({
      name: 'nuget_config_password',
      entity: 'password',
      category: 'secret',
      confidence: 0.95,
      pattern: String.raw`<add[ \t]+key=\\?"(?:ClearText)?Password\\?"[ \t]+value=\\?"([^"\\\n]{4,200})(?=\\?")`,
      flags: 'i',
      hints: ['password\\"', 'password"'],
      group: 1,
      minLength: 30,
      validate: entityIf('password', (v) => !isPlaceholder(v)),
    }),
    // `_auth=` and `_password=` in .npmrc (base64); `_authToken=` is a `token` assignment.
    define({
      name: 'npmrc_credential',
      entity: 'password',
      category: 'secret',
      confidence: 0.9,
      pattern: String.raw`(?<![A-Za-z0-9])_(?:auth|password)[ \t]*=[ \t]*["']?([A-Za-z0-9+/]{8,1000}={0,2})(?![A-Za-z0-9+/=])`,
      hints: ['_auth', '_password'],
      group: 1,
      minLength: 14,
      validate: entityIf('password', (v) => !isPlaceholder(v)),
    }),
    // `<password>...</password>` in Maven's settings.xml and other XML configuration.
    define({
      name: 'xml_password_element',
      entity: 'password',
      category: 'secret',
      confidence: 0.85,
      pattern: String.raw`<(?:password|passphrase|secret|apiKey|token)>([^<\n]{4,200})(?=</)`,
      flags: 'i',
      hints: ['<password>', '<passphrase>', '<secret>', '<apikey>', '<token>'],
      group: 1,
      minLength: 20,
      validate: entityIf('password', (v) => !isPlaceholder(v)),
    }),
  ];
}
