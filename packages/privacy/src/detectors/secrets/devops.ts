/**
 * Version control and CI/CD tokens (GitHub's own detector is in builtin.ts): GitLab,
 * Atlassian and Bitbucket, Sourcegraph, CircleCI, Buildkite, Harness, JFrog and Artifactory,
 * SonarQube, Snyk, Sentry, Travis, Drone, Codecov, Gitter, Azure DevOps.
 */
import { isBase64Json } from '../checks.js';
import { labelled, token } from '../define.js';
import type { Detector } from '../types.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

export function devopsDetectors(): Detector[] {
  return [
    // Every GitLab token type has its own prefix; routable tokens end in `.` and 9 characters.
    token({
      name: 'gitlab_token',
      prefix:
        '(?:glpat|gldt|glrt|glcbt|glptt|glft|glimt|glagent|gloas|glsoat|glffct|glsat|gltst|glwt)-|GR1348941|_gitlab_session=',
      body: String.raw`[0-9A-Za-z_-]{20,400}(?:\.[0-9a-z]{9})?`,
      hints: [
        'glpat-',
        'gldt-',
        'glrt-',
        'glcbt-',
        'glptt-',
        'glft-',
        'glimt-',
        'glagent-',
        'gloas-',
        'glsoat-',
        'glffct-',
        'glsat-',
        'gltst-',
        'glwt-',
        'gr1348941',
        '_gitlab_session=',
      ],
      minLength: 25,
    }),
    token({
      name: 'atlassian_api_token',
      prefix: 'ATATT3|ATCTT3|ATBB',
      body: '[A-Za-z0-9_=-]{28,300}',
      after: 'A-Za-z0-9_=-',
      hints: ['atatt3', 'atctt3', 'atbb'],
      minLength: 32,
    }),
    labelled({
      name: 'atlassian_api_token_labelled',
      keywords: ['atlassian', 'confluence', 'jira', 'bitbucket'],
      value: '[a-z0-9]{24}|[a-z0-9]{32}|[a-z0-9=_-]{64}',
      minLength: 28,
    }),
    token({
      name: 'sourcegraph_token',
      prefix: 'sgp_',
      body: '(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}',
      hints: ['sgp_'],
      minLength: 44,
    }),
    token({
      name: 'circleci_token',
      prefix: 'CCIPAT_|CCIPRJ_',
      body: '[A-Za-z0-9]{22}_[a-f0-9]{40}',
      hints: ['ccipat_', 'cciprj_'],
      minLength: 70,
    }),
    token({
      name: 'buildkite_token',
      prefix: 'bkua_',
      body: '[a-f0-9]{40}',
      hints: ['bkua_'],
      minLength: 45,
    }),
    token({
      name: 'harness_token',
      prefix: String.raw`pat\.|sat\.`,
      body: String.raw`[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}`,
      hints: ['pat.', 'sat.'],
      minLength: 72,
    }),
    token({
      name: 'artifactory_token',
      prefix: 'AKCp|cmVmd',
      body: '[A-Za-z0-9]{59,69}',
      hints: ['akcp', 'cmvmd'],
      minLength: 64,
    }),
    labelled({
      name: 'jfrog_token_labelled',
      keywords: ['jfrog', 'artifactory', 'bintray', 'xray'],
      value: '[a-z0-9]{64}|[a-z0-9]{73}',
      minLength: 68,
    }),
    token({
      name: 'sonarqube_token',
      prefix: 'squ_|sqp_|sqa_',
      body: '[a-f0-9]{40}',
      hints: ['squ_', 'sqp_', 'sqa_'],
      minLength: 44,
    }),
    labelled({
      name: 'snyk_token',
      keywords: ['snyk'],
      value: UUID,
      minLength: 40,
    }),
    token({
      name: 'sentry_token',
      prefix: 'sntrys_eyJ|sntryu_',
      body: '[A-Za-z0-9+/=_]{60,500}',
      after: 'A-Za-z0-9+/=_-',
      hints: ['sntrys_eyj', 'sntryu_'],
      minLength: 67,
      // Organization tokens carry a base64 JSON payload, then `_` and a 43-character secret.
      check: (v) => !v.startsWith('sntrys_') || isBase64Json(`eyJ${v.slice(10, v.lastIndexOf('_'))}`),
    }),
    labelled({
      name: 'ci_service_token_labelled',
      keywords: ['travis', 'drone', 'codecov', 'gitter', 'sentry', 'azure_?devops', 'ado_pat', 'azdo'],
      hints: [
        'travis',
        'drone',
        'codecov',
        'gitter',
        'sentry',
        'azure_devops',
        'azuredevops',
        'ado_pat',
        'azdo',
      ],
      value: '[a-z0-9]{22}|[a-z0-9]{32}|[a-z0-9_-]{40}|[a-z2-7]{52}|[a-f0-9]{64}',
      minLength: 26,
    }),
  ];
}
