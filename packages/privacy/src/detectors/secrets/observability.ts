/**
 * Monitoring and logging services: Datadog, New Relic, Grafana, Dynatrace, Sumo Logic, Splunk,
 * Honeycomb and the others whose keys only a label gives away.
 */
import { isBase64Json } from '../checks.js';
import { labelled, token } from '../define.js';
import type { Detector } from '../types.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function observabilityDetectors(): Detector[] {
  return [
    // API keys are 32 hexadecimal characters, application keys 40; both only next to a label
    // (`DD_API_KEY`, `datadog_app_key`, Terraform's `app_key`).
    labelled({
      name: 'datadog_key',
      keywords: [
        'datadog',
        'dd_api',
        'dd_app',
        'dd-api',
        'dd-app',
        'ddapi',
        'ddapp',
        'app_?key',
        'application_?key',
      ],
      hints: [
        'datadog',
        'dd_api',
        'dd_app',
        'dd-api',
        'dd-app',
        'ddapi',
        'ddapp',
        'app_key',
        'appkey',
        'application_key',
        'applicationkey',
      ],
      value: '[a-f0-9]{32}|[a-z0-9]{40}',
      minLength: 36,
    }),
    token({
      name: 'new_relic_key',
      prefix: 'NRAK-|NRAA-|NRJS-|NRII-',
      body: '[A-Za-z0-9-]{19,32}',
      hints: ['nrak-', 'nraa-', 'nrjs-', 'nrii-'],
      minLength: 24,
    }),
    token({
      name: 'new_relic_license_key',
      prefix: '',
      body: '[a-f0-9]{36}NRAL',
      hints: ['nral'],
      minLength: 40,
    }),
    token({
      name: 'grafana_token',
      prefix: 'glc_|glsa_|eyJrIjoi',
      body: '[A-Za-z0-9+/_]{32,400}={0,3}',
      after: 'A-Za-z0-9+/=_-',
      hints: ['glc_', 'glsa_', 'eyjrijoi'],
      minLength: 40,
      // Legacy API keys are base64 JSON (`{"k":"...","n":"...","id":1}`).
      check: (v) => !v.startsWith('eyJ') || isBase64Json(v.replace(/=+$/, '')),
    }),
    token({
      name: 'dynatrace_token',
      prefix: String.raw`dt0c01\.`,
      body: String.raw`[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`,
      hints: ['dt0c01.'],
      minLength: 96,
    }),
    labelled({
      name: 'sumo_logic_key',
      keywords: ['sumo'],
      value: 'su[a-z0-9]{12}|[a-z0-9]{64}',
      minLength: 18,
    }),
    labelled({
      name: 'observability_key_labelled',
      keywords: [
        'splunk',
        'honeycomb',
        'pagerduty',
        'opsgenie',
        'logz',
        'loggly',
        'lightstep',
        'rollbar',
        'bugsnag',
      ],
      value: `${UUID}|[a-z0-9]{20}|[a-z0-9]{22}|[a-f0-9]{32}|[a-z0-9]{40}`,
      minLength: 24,
    }),
  ];
}
