/**
 * The README's use of the cloudg config file (region `config`). Type-checked; the README's
 * config.yaml itself is loaded by test/readme-config.test.ts, which checks these results.
 */
// #region config
import { liveCooldownSeconds, loadCloudgConfig, parseCloudgConfig, Workspace } from '@cloudg/catalog';
// #endregion config

export function configTour(): void {
  // #region config
  const config = loadCloudgConfig('/etc/cloudg/config.yaml'); // the file above
  const ws = new Workspace({ config });
  ws.outputDir; // /etc/cloudg/reports
  ws.status().providers_configured; // ['aws', 'azure', 'gcp']
  liveCooldownSeconds(config, 'gcp'); // 600
  parseCloudgConfig({ providers: ['gcp'] }, { baseDir: '/srv/cloudg' }); // from a value built in code
  // #endregion config
}
