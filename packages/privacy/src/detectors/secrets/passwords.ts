/**
 * Passwords that sit in command lines and prose rather than in a `key=value` assignment:
 * `curl -u user:password`, `--password <value>`, `mysql -pSecret`, `the password is ...`,
 * `DB_PASS=...`. A value must look like a password, not like a word of the sentence or a
 * stand-in (looksLikePassword).
 */
import { define } from '../define.js';
import type { Detector } from '../types.js';
import { entityIf, isPlaceholder } from '../validators.js';

/** Values that name the thing instead of being it, as in `curl -u user:password`. */
const STAND_IN_WORDS = new Set([
  'pass',
  'password',
  'passwd',
  'pwd',
  'secret',
  'token',
  'test',
  'yyy',
  'yyyy',
  'value',
  'stdin',
  'prompt',
  'required',
  'protected',
  'incorrect',
  'invalid',
  'expired',
  'reset',
  'changed',
  'stored',
  'missing',
  'empty',
  'hidden',
  'masked',
  'encrypted',
  'set',
  'unset',
]);

/**
 * A password, not prose: not a placeholder or a reference (`$VAR`, `%VAR%`, `[PASSWORD]`), not
 * a word that names it (`password`, `token`), and not a plain lower-case word (`stored`,
 * `required`): it needs a digit, a symbol or a capital after the first character.
 */
export function looksLikePassword(value: string): boolean {
  const v = value.replace(/[.,;:!?)\]}>]+$/, '');
  if (v.length < 4 || isPlaceholder(v)) return false;
  // References, paths and URLs: `[PASSWORD]`, `$(cat f)`, `/run/secrets/db`, `https://...`.
  if (/^[[(<{$%/~]|^\.\.?\/|^[a-z]+:\/\//i.test(v)) return false;
  const lower = v.toLowerCase();
  if (STAND_IN_WORDS.has(lower)) return false;
  return /[0-9]/.test(v) || /[^A-Za-z0-9]/.test(v) || /[A-Z]/.test(v.slice(1));
}

const password = entityIf('password', looksLikePassword);

export function passwordDetectors(): Detector[] {
  return [
    // `curl -u user:password` (also `--user`, quoted either way, `-u` on a continuation line).
    // The `curl` hint says the string is a curl command; the pattern starts at the option.
    define({
      name: 'curl_user_password',
      entity: 'password',
      category: 'secret',
      confidence: 0.9,
      pattern: String.raw`(?<=\s)(?:-u|--user)(?:=|[ \t]+)(?:\\?["']?[^\s"':\\]{0,200}\\?["']?:\\?["']?([^\s"'\\]{3,200})|\\?"([^"\s:\\]{6,200}):\\?")`,
      hints: ['curl'],
      group: [1, 2],
      minLength: 16,
      validate: password,
    }),
    // `--password value`, `--db-password=value`, `--client-secret "value"`, `--api-key value`.
    define({
      name: 'cli_password_argument',
      entity: 'password',
      category: 'secret',
      confidence: 0.85,
      pattern: String.raw`(?<![\w-])--(?:[a-z]{1,24}-){0,3}(?:password|passwd|pass|pwd|secret|token|api-key|apikey)(?:=|[ \t]+)(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|([^\s"'\\-][^\s"'\\]{3,200}))`,
      flags: 'i',
      hints: ['--'],
      group: [1, 2, 3],
      minLength: 12,
      validate: password,
    }),
    // `docker login -u user -p value`: the hint says it is a docker login command.
    define({
      name: 'docker_login_password',
      entity: 'password',
      category: 'secret',
      confidence: 0.85,
      pattern: String.raw`[ \t]-p[ \t]+(?:"([^"\n]{4,200})"|'([^'\n]{4,200})'|([^\s"'\\-][^\s"'\\]{3,200}))`,
      hints: ['docker login'],
      group: [1, 2, 3],
      minLength: 20,
      validate: password,
    }),
    // `mysql -u root -pSecret`: the password glued to `-p` (a separate word would be a database).
    define({
      name: 'mysql_password_argument',
      entity: 'password',
      category: 'secret',
      confidence: 0.85,
      pattern: String.raw`[ \t]-p([^\s"'\\-][^\s"'\\]{3,200})`,
      hints: ['mysql'],
      group: 1,
      minLength: 12,
      validate: password,
    }),
    // `the password is ...`, `password for the admin account: ...`, `DB_PASS=...`, `"pw": "..."`.
    define({
      name: 'password_phrase',
      entity: 'password',
      category: 'secret',
      confidence: 0.8,
      pattern: String.raw`(?<![A-Za-z])(?:passwords?|passwd|passphrase|passcode|pwd|pw|pass)(?:[ \t]+(?:for|of|to)[ \t][^\n:="']{1,40}?)?(?:[ \t]+(?:(?:is|was|has been|will be)(?:[ \t]+(?:set|reset|changed|updated)[ \t]+to)?|(?:set|reset|changed|updated)[ \t]+to|=|:)[ \t]+|\\?["']?[ \t]*[:=][ \t]*)\\?["'\x60]?([^\s"'\x60\\]{4,200})`,
      flags: 'i',
      hints: ['pass', 'pwd', 'pw'],
      group: 1,
      minLength: 8,
      validate: password,
    }),
  ];
}
