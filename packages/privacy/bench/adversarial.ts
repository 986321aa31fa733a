/**
 * Adversarial inputs for the detector benchmark and the linearity tests: long runs of what each
 * built-in pattern starts with or loops on, and near-matches that fail at the last character.
 * A backtracking regex that is superlinear shows it on at least one of these. Deterministic.
 */

/** Repeats `unit` until the result is exactly `size` characters long. */
export function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** `name` → the unit repeated to fill the input. */
export const ADVERSARIAL_UNITS: Readonly<Record<string, string>> = {
  // Character runs the patterns loop on.
  'space run': ' ',
  'tab run': '\t',
  'newline run': '\n',
  'letter run': 'a',
  'upper run': 'A',
  'digit run': '1',
  'hex run': 'a1f0',
  'base64 run': 'Ab1+',
  'base64url run': 'Ab1_-',
  '= run': '=',
  '@ run': '@',
  ': run': ':',
  '. run': '.',
  '- run': '-',
  '/ run': '/',
  'a- run': 'a-',
  'a. run': 'a.',
  'a_ run': 'a_',
  'a: run': 'a:',
  'a@ run': 'a@',
  '1. run': '1.',
  '1: run': '1:',
  'ab- run': 'ab-',
  'scheme chars': 'a.b+c-',
  'label run': 'abcdefghij-',
  'long labels': `${'a'.repeat(62)}.`,
  // Repeated prefixes of the secret detectors.
  'cloudg://assets/ repeated': 'cloudg://assets/',
  'cloudg:// then dots': 'cloudg://assets/......',
  '-----BEGIN repeated': '-----BEGIN ',
  '-----BEGIN A repeated': '-----BEGIN A ',
  'PEM header repeated': '-----BEGIN RSA PRIVATE KEY-----',
  '-----END repeated': '-----END RSA ',
  'eyJ repeated': 'eyJ',
  '.eyJ repeated': '.eyJ',
  'JWT near-miss': 'eyJhbGciOiJI.eyJzdWIiOiIx.abc ',
  'https:// repeated': 'https://',
  'https://a repeated': 'https://a',
  'https://u: repeated': 'https://u:',
  'URL near-miss (no @)': 'redis://default:pa55word99 ',
  'password= repeated': 'password=',
  'pwd= near-miss': 'pwd=;',
  'password: " repeated': 'password: "',
  'a-password repeated': 'a-password',
  'password run then colon': 'passwordpasswordpassword',
  'api_key repeated': 'api_key',
  'token repeated': 'token',
  'secret repeated': 'secret',
  'key= repeated': 'key=',
  'aws secret repeated': 'aws secret ',
  'sk repeated': 'sk "',
  'sk then 41 base64': `sk "${'A'.repeat(41)} `,
  'Bearer repeated': 'Bearer ',
  'Bearer near-miss': 'Bearer abcdefghijklmno ',
  'ghp_ repeated': 'ghp_',
  'ghp_ near-miss': ` ghp_${'a'.repeat(35)}`,
  'github_pat_ repeated': 'github_pat_',
  'xoxb- repeated': 'xoxb-',
  'xoxb- near-miss': ' xoxb-123456789',
  'AIza repeated': 'AIza',
  'AIza near-miss': ` AIza${'a'.repeat(34)}`,
  'sk_live_ repeated': 'sk_live_',
  'sk_live_ near-miss': ` sk_live_${'a'.repeat(15)}`,
  '&sig= repeated': '&sig=',
  'A== repeated': 'A==',
  'storage key near-miss': ` ${'A'.repeat(85)}==`,
  // Credentials and identifiers.
  'AKIA repeated': 'AKIA',
  'AKIA near-miss': ' AKIA1234567890ABCDE',
  'AROA repeated': 'AROA',
  'arn:aws: repeated': 'arn:aws:',
  'arn:aws-a-a repeated': 'arn:aws-a-a-a-a',
  'ARN tail of colons': 'arn:aws:s3:::::::::::::::::::::::::::',
  'o- repeated': 'o-',
  'ou- near-miss': 'ou-abcd-abcdefg ',
  '/subscriptions/ repeated': '/subscriptions/',
  'projects/ repeated': 'projects/',
  'projects/ then digits': `projects/${'1'.repeat(40)}a `,
  '// run': '//a',
  'googleapis near-miss': '//compute.googleapis.co',
  'tenant id: repeated': 'tenant id: ',
  'GUID near-miss': '9f86d081-884c-4d63-9a2b-1c5e3f0a7b2 ',
  'e-mail near-miss': 'alice@example.',
  'a@b. repeated': 'a@b.',
  'e-mail dotted domain': `x@${'a.'.repeat(30)}1 `,
  '12 digits then letter': '123456789012a ',
  // Network and time.
  'IPv6 near-miss': '2600:1f18:0:0:0:0:0:0:1:',
  'IPv4 near-miss': '10.0.1.5.1 ',
  'MAC near-miss': '00:1a:2b:3c:4d:5e:',
  'hostname near-miss': 'db1.prod.corp.comx.',
  'com. repeated': 'com.',
  'timestamp repeated': '2024-01-01T12:00',
  'timestamp fraction': `2024-01-01T12:00:00.${'1'.repeat(50)}a `,
  // Injection heuristics (sanitize).
  'ignore repeated': 'ignore ',
  'ignore the repeated': 'ignore the the the the ',
  'you are now repeated': 'you are ',
  '< then spaces': `<${' '.repeat(40)}`,
  'send repeated': 'send ',
  'call the repeated': 'call the x.y:z ',
  'newline hash': '\n   #   ',
  'assistant, repeated': 'assistant , ',
};

/**
 * Distinctive prefixes (what the patterns anchor on), each followed by one long run of a
 * character the pattern may loop on after it: `<` and a million spaces, `https://` and a
 * million `a.`, `password: "` and a million letters without the closing quote...
 */
export const ADVERSARIAL_HEADS: readonly string[] = [
  'cloudg://assets/',
  '-----BEGIN ',
  '-----BEGIN RSA PRIVATE KEY-----',
  'eyJ',
  'eyJabcd.eyJabcd.',
  'https://',
  'https://u:',
  'password=',
  'password: "',
  "password: '",
  'password ',
  'Bearer ',
  'ghp_',
  'github_pat_',
  'xoxb-',
  'AIza',
  'sk_live_',
  '&sig=',
  'AKIA',
  'arn:aws:',
  'arn:aws:s3:::',
  'o-',
  'ou-',
  '/subscriptions/',
  'projects/',
  '//',
  'tenant id: ',
  'x@',
  'x@a.',
  '10.0.',
  '2600:',
  '00:1a:',
  '2024-01-01T12:00:00.',
  'aws secret ',
  'sk "',
  '<',
  '[',
  '\n#',
  'ignore ',
  'send ',
  'call the ',
  'assistant',
];

/** The runs that follow each head. */
export const ADVERSARIAL_RUNS: readonly string[] = [
  ' ',
  '\t',
  '\n',
  'a',
  'A',
  '1',
  '.',
  '-',
  ':',
  '/',
  '=',
  '_',
  '@',
  'a.',
  'a-',
  'Ab1+',
  '"',
];

/** Every adversarial input of `size` characters, as `[name, text]`, built one at a time. */
export function* adversarialInputs(size: number): Generator<[string, string]> {
  for (const [name, unit] of Object.entries(ADVERSARIAL_UNITS)) yield [name, repeatTo(unit, size)];
  for (const head of ADVERSARIAL_HEADS) {
    for (const run of ADVERSARIAL_RUNS) {
      yield [
        `${JSON.stringify(head)} + ${JSON.stringify(run)} run`,
        head + repeatTo(run, size - head.length),
      ];
    }
  }
}

/**
 * Every hint of every built-in detector in one short line, so that no input is skipped by
 * the hint prefilter: the benchmark and the tests append it to each input.
 */
export function hintLine(hints: Iterable<string>): string {
  return ` ${[...new Set(hints)].join(' ')} `;
}
