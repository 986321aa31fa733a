import type { Severity } from '../model/severity.js';

/** The rulesets of one rules directory, indexed for the compliance tools and the normaliser. */

export interface RulesetControl {
  framework: string;
  control_id: string;
  title: string | null;
  severity: Severity | null;
  checks: readonly string[];
  patterns: readonly RegExp[];
  /** Provider of the file that defines it (null for provider-neutral frameworks). */
  provider: string | null;
  /** The defining file, relative to the rules directory. */
  file: string;
}

/** A `list_frameworks` row: one framework name across the files that use it. */
export interface FrameworkInfo {
  framework: string;
  versions: string[];
  providers: string[];
  /** Distinct control ids across its files. */
  controls: number;
  /** Base names of its files, in load order. */
  files: string[];
}

/** One loaded ruleset file, already validated. */
export interface LoadedRuleset {
  file: string;
  framework: string;
  version: string | null;
  provider: string | null;
  controls: RulesetControl[];
}

/** Scanner + check id -> the canonical check they stand for. */
export type EquivalenceMap = ReadonlyMap<string, string>;

export function equivalenceKey(scanner: string, check: string): string {
  return `${scanner.toLowerCase()}\u0000${check}`;
}

/** A provider-scoped group of pattern controls of one framework (the pattern tier's unit). */
export interface PatternRule {
  framework: string;
  provider: string | null;
  patterns: readonly RegExp[];
}

const NONE: readonly RulesetControl[] = Object.freeze([]);

export class RulesetCatalog {
  readonly dir: string;
  /** Every framework, sorted by name (code point order, as the reference lists them). */
  readonly frameworks: readonly FrameworkInfo[];
  readonly equivalences: EquivalenceMap;
  readonly patternRules: readonly PatternRule[];
  readonly #controls = new Map<string, RulesetControl[]>();
  readonly #byCheck = new Map<string, RulesetControl[]>();

  constructor(dir: string, files: readonly LoadedRuleset[], equivalences: EquivalenceMap) {
    this.dir = dir;
    this.equivalences = equivalences;
    const infos = new Map<string, FrameworkInfo>();
    const patternRules: PatternRule[] = [];
    for (const file of files) {
      let info = infos.get(file.framework);
      if (!info) {
        info = { framework: file.framework, versions: [], providers: [], controls: 0, files: [] };
        infos.set(file.framework, info);
      }
      if (file.version !== null && !info.versions.includes(file.version)) info.versions.push(file.version);
      if (file.provider !== null && !info.providers.includes(file.provider))
        info.providers.push(file.provider);
      const base = file.file.split('/').pop() ?? file.file;
      if (!info.files.includes(base)) info.files.push(base);
      const list = this.#controls.get(file.framework) ?? [];
      this.#controls.set(file.framework, list);
      const patterns: RegExp[] = [];
      for (const control of file.controls) {
        // Several files may define one framework; the first definition of an id is the one shown.
        if (!list.some((c) => c.control_id === control.control_id)) list.push(control);
        for (const check of control.checks) {
          const hits = this.#byCheck.get(check) ?? [];
          hits.push(control);
          this.#byCheck.set(check, hits);
        }
        patterns.push(...control.patterns);
      }
      if (patterns.length)
        patternRules.push({ framework: file.framework, provider: file.provider, patterns });
    }
    for (const [name, info] of infos) info.controls = this.#controls.get(name)?.length ?? 0;
    this.frameworks = [...infos.values()].sort((a, b) => (a.framework < b.framework ? -1 : 1));
    this.patternRules = patternRules;
  }

  get frameworkNames(): string[] {
    return this.frameworks.map((f) => f.framework);
  }

  /** Controls a framework defines, first definition of each id, in file order. */
  controlsOf(framework: string): readonly RulesetControl[] {
    return this.#controls.get(framework) ?? [];
  }

  /** The control with exactly this id in this framework, if the rulesets define it. */
  control(framework: string, controlId: string): RulesetControl | undefined {
    return this.controlsOf(framework).find((c) => c.control_id === controlId);
  }

  /** Every control whose `checks` list this scanner check id. */
  controlsForCheck(check: string): readonly RulesetControl[] {
    return this.#byCheck.get(check) ?? NONE;
  }

  /** The canonical check a scanner's check stands for, from `check_equivalence.yaml`. */
  canonicalCheck(scanner: string, check: string): string | undefined {
    return this.equivalences.get(equivalenceKey(scanner, check));
  }
}
