/**
 * Trivy's JSON report (`--format json`, schema 2), one file per scanned artifact: the OS
 * packages of a virtual machine (`trivy vm`) or the application libraries of a registry's image
 * (`trivy image`). The artifact is named as the asset is, so each report resolves to it.
 */
import { type PlannedFinding, trivyTarget } from '../findings.js';

export function* trivyFiles(findings: readonly PlannedFinding[]): Generator<[string, string]> {
  const byArtifact = new Map<string, PlannedFinding[]>();
  for (const p of findings) {
    if (p.scanner !== 'trivy' || !p.vuln) continue;
    const list = byArtifact.get(p.asset.name);
    if (list) list.push(p);
    else byArtifact.set(p.asset.name, [p]);
  }
  for (const [name, list] of byArtifact) {
    const first = list[0];
    if (!first) continue;
    const image = first.asset.asset_type === 'CONTAINER_REGISTRY';
    const report = {
      SchemaVersion: 2,
      CreatedAt: '2026-01-15T12:00:00.000000000Z',
      ArtifactName: name,
      ArtifactType: image ? 'container_image' : 'vm',
      Metadata: image
        ? { OS: { Family: 'debian', Name: '12.5' }, ImageID: `sha256:${first.finding.id.replace(/-/g, '')}` }
        : { OS: { Family: 'ubuntu', Name: '22.04' } },
      Results: [
        {
          Target: trivyTarget(first.asset),
          Class: image ? 'lang-pkgs' : 'os-pkgs',
          Type: image ? 'jar' : 'ubuntu',
          Vulnerabilities: list.map((p) => {
            const v = p.vuln;
            if (!v) return {};
            return {
              VulnerabilityID: v.id,
              PkgID: `${v.pkg}@${v.installed}`,
              PkgName: v.pkg,
              InstalledVersion: v.installed,
              ...(v.fixed ? { FixedVersion: v.fixed } : {}),
              Status: v.fixed ? 'fixed' : 'affected',
              SeveritySource: 'nvd',
              PrimaryURL: `https://avd.aquasec.com/nvd/${v.id.toLowerCase()}`,
              Title: `${v.pkg}: ${v.summary}`,
              Description: p.finding.description,
              Severity: v.severity,
              CVSS: { nvd: { V3Score: v.cvss } },
              PublishedDate: p.observed,
            };
          }),
        },
      ],
    };
    yield [`trivy/${name}.json`, JSON.stringify(report)];
  }
}
