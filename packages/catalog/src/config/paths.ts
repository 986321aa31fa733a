import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CloudgConfig } from './schema.js';

/** `~` and `~/...` mean the home directory, as they would in a shell; other paths resolve against `baseDir`. */
export function resolveConfigPath(path: string, baseDir: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return resolve(baseDir, path);
}

/**
 * The config with every path made absolute, so it means the same thing whatever directory the
 * server later runs in: relative paths in a file are relative to that file.
 */
export function resolveConfigPaths(config: CloudgConfig, baseDir: string): CloudgConfig {
  const abs = (path: string) => resolveConfigPath(path, baseDir);
  const absOrNull = (path: string | null) => (path === null ? null : abs(path));
  const { aws, gcp } = config;
  return {
    ...config,
    report: { ...config.report, output_dir: absOrNull(config.report.output_dir) },
    rulesets: { ...config.rulesets, rules_dir: absOrNull(config.rulesets.rules_dir) },
    state: { ...config.state, dir: absOrNull(config.state.dir) },
    aws: {
      ...aws,
      ...(aws.web_identity_token_file === undefined
        ? {}
        : { web_identity_token_file: abs(aws.web_identity_token_file) }),
    },
    gcp: {
      ...gcp,
      ...(gcp.credentials_file === undefined ? {} : { credentials_file: abs(gcp.credentials_file) }),
    },
  };
}
