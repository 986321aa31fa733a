import { isPlainObject } from '@cloudg/core';
import { type ControlRef, makeScannerFinding, type ScannerFinding } from './finding-factory.js';
import { canonicalFramework, parseRequirementString } from './frameworks.js';
import { isProwlerV2Record, parseProwlerV2 } from './prowler-v2.js';

/**
 * Prowler output in every shape it has shipped: AWS Security Finding Format (`-M json-asff`,
 * Prowler 2 and 3, also wrapped as `{"Findings": [...]}`), OCSF detection findings (`-M
 * json-ocsf`, the default since Prowler 4; the reference refused these, cloudg reads them),
 * Prowler 3's native JSON and Prowler 2's JSON Lines (see prowler-v2.ts); as a JSON array or
 * JSON Lines. Only failing checks become findings; passed, manual and archived records are
 * skipped.
 */

type Rec = Record<string, unknown>;

function obj(value: unknown): Rec {
  return isPlainObject(value) ? value : {};
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function isAsffRecord(r: Rec): boolean {
  return 'ProductArn' in r || ('SchemaVersion' in r && 'Resources' in r);
}

export function isOcsfRecord(r: Rec): boolean {
  return 'finding_info' in r || 'status_code' in r;
}

function isNativeRecord(r: Rec): boolean {
  return 'CheckID' in r && 'Status' in r;
}

/** The first item of a JSON array looks like Prowler output (native, ASFF, OCSF or v2). */
export function looksLikeProwlerRecord(r: Rec): boolean {
  return (
    isAsffRecord(r) || isOcsfRecord(r) || isProwlerV2Record(r) || 'CheckID' in r || 'FindingUniqueId' in r
  );
}

export function parseAsff(r: Rec): ScannerFinding | null {
  if (str(r.RecordState) === 'ARCHIVED') return null;
  const compliance = obj(r.Compliance);
  const status = str(compliance.Status)?.toUpperCase();
  // Prowler 3 writes PASSED, FAILED and INFOED (its INFO results); Security Hub also knows
  // WARNING and NOT_AVAILABLE. A record without a status (another product's ASFF) is kept.
  if (status && status !== 'FAILED' && status !== 'WARNING') return null;
  const resource = obj(Array.isArray(r.Resources) ? r.Resources[0] : undefined);
  const fields = obj(r.ProductFields);
  const partition = str(resource.Partition);
  const provider = partition?.startsWith('aws') || !partition ? 'aws' : partition;
  const controls: ControlRef[] = [];
  if (Array.isArray(compliance.RelatedRequirements)) {
    for (const req of compliance.RelatedRequirements)
      if (typeof req === 'string') controls.push(...parseRequirementString(req, provider));
  }
  const generator = str(r.GeneratorId) ?? str(r.Id) ?? 'prowler';
  const resourceId = str(resource.Id);
  return makeScannerFinding({
    tool: 'prowler',
    check_id: generator.replace(/^prowler-/, ''),
    title: r.Title,
    description: r.Description,
    severity: obj(r.Severity).Label ?? obj(r.Severity).Original,
    resource_id:
      str(fields.ProwlerResourceName) && !resourceId?.startsWith('arn:')
        ? fields.ProwlerResourceName
        : resourceId,
    resource_arn: resourceId?.startsWith('arn:') ? resourceId : undefined,
    resource_type: resource.Type,
    // Prowler 2's ASFF left the resource's region out; the product ARN names the region scanned.
    region: resource.Region ?? str(r.ProductArn)?.split(':')[3],
    account_id: r.AwsAccountId,
    source_finding_id: r.Id,
    detected_at: r.FirstObservedAt ?? r.CreatedAt,
    remediation: obj(obj(r.Remediation).Recommendation).Text,
    controls,
  });
}

export function parseOcsf(r: Rec): ScannerFinding | null {
  const status = str(r.status_code)?.toUpperCase();
  if (status && status !== 'FAIL') return null;
  const info = obj(r.finding_info);
  const meta = obj(r.metadata);
  const resource = obj(Array.isArray(r.resources) ? r.resources[0] : undefined);
  const cloud = obj(r.cloud);
  const provider = str(cloud.provider) ?? null;
  const controls: ControlRef[] = [];
  const compliance = obj(obj(r.unmapped).compliance);
  for (const [tag, ids] of Object.entries(compliance)) {
    const framework = canonicalFramework(tag, provider);
    for (const id of Array.isArray(ids) ? ids : [ids])
      if (typeof id === 'string') controls.push({ framework, control_id: id });
  }
  const uid = str(resource.uid);
  return makeScannerFinding({
    tool: 'prowler',
    check_id: str(meta.event_code) ?? str(info.uid) ?? 'prowler',
    title: info.title ?? r.message,
    description: info.desc ?? r.status_detail ?? r.message,
    severity: r.severity,
    resource_id: str(resource.name) && !uid?.startsWith('arn:') ? resource.name : uid,
    resource_arn: uid?.startsWith('arn:') ? uid : undefined,
    resource_type: resource.type,
    region: resource.region ?? cloud.region,
    account_id: obj(cloud.account).uid,
    source_finding_id: info.uid,
    detected_at: info.created_time_dt ?? r.time_dt,
    remediation: obj(r.remediation).desc,
    controls,
  });
}

function parseNative(r: Rec): ScannerFinding | null {
  const status = str(r.Status)?.toUpperCase();
  if (status !== 'FAIL') return null;
  const provider = str(r.Provider) ?? 'aws';
  const controls: ControlRef[] = [];
  for (const [tag, ids] of Object.entries(obj(r.Compliance))) {
    const framework = canonicalFramework(tag, provider);
    for (const id of Array.isArray(ids) ? ids : [ids])
      if (typeof id === 'string') controls.push({ framework, control_id: id });
  }
  const remediation = obj(obj(r.Remediation).Recommendation);
  return makeScannerFinding({
    tool: 'prowler',
    check_id: str(r.CheckID) ?? 'prowler',
    title: r.CheckTitle,
    description: r.StatusExtended ?? r.Description,
    severity: r.Severity,
    resource_id: r.ResourceId,
    resource_arn: r.ResourceArn,
    resource_type: r.ResourceType,
    region: r.Region,
    account_id: r.AccountId,
    source_finding_id: r.FindingUniqueId,
    detected_at: r.AssessmentStartTime,
    remediation: remediation.Text,
    controls,
  });
}

/** Parse one record of any Prowler shape; null for passing or unknown records. */
export function parseProwlerRecord(record: unknown): ScannerFinding | null {
  if (!isPlainObject(record)) return null;
  if (isAsffRecord(record)) return parseAsff(record);
  if (isOcsfRecord(record)) return parseOcsf(record);
  if (isNativeRecord(record)) return parseNative(record);
  if (isProwlerV2Record(record)) return parseProwlerV2(record);
  return null;
}

/** Records of a parsed Prowler document: an array, a `{"Findings": [...]}` batch or one record. */
export function prowlerRecords(document: unknown): unknown[] {
  if (Array.isArray(document)) return document;
  if (isPlainObject(document) && Array.isArray(document.Findings)) return document.Findings;
  // An empty report (`null`, `{}`) has no records rather than one unreadable one.
  if (!isPlainObject(document) || Object.keys(document).length === 0) return [];
  return [document];
}

export function parseProwler(document: unknown): ScannerFinding[] {
  const out: ScannerFinding[] = [];
  for (const record of prowlerRecords(document)) {
    const finding = parseProwlerRecord(record);
    if (finding) out.push(finding);
  }
  return out;
}
