import type { Dataset } from '../dataset/dataset.js';
import { type ControlRow, compareControlRows, controlRow } from './control-rows.js';
import { type FrameworkPosture, frameworkPosture } from './posture.js';

/** Failing controls a framework view lists at most. */
const MAX_FAILING_CONTROLS = 300;

/** A failing control as the framework view lists it. */
export type FailingControl = Pick<
  ControlRow,
  'framework' | 'control_id' | 'control_title' | 'open_findings' | 'max_severity'
>;

/** Posture rows and failing controls of some frameworks: `cloudg://compliance/{framework}`. */
export interface FrameworkView {
  dataset: string;
  posture: FrameworkPosture[];
  failing_controls: FailingControl[];
}

/**
 * The view of the given frameworks (names as the dataset spells them): their posture rows and up
 * to 300 failing controls, worst first. The framework resource and the compliance prompt both
 * show this, so their figures agree with `compliance_summary`.
 */
export function frameworkView(dataset: Dataset, frameworks: readonly string[]): FrameworkView {
  const matched = new Set(frameworks);
  const failing = dataset.compliance
    .filter((c) => matched.has(c.framework) && c.status === 'FAIL')
    .map((c) => controlRow(dataset, c))
    .sort(compareControlRows)
    .slice(0, MAX_FAILING_CONTROLS)
    .map(({ framework, control_id, control_title, open_findings, max_severity }) => ({
      framework,
      control_id,
      control_title,
      open_findings,
      max_severity,
    }));
  return {
    dataset: dataset.name,
    posture: frameworks.map((fw) => frameworkPosture(dataset, fw)),
    failing_controls: failing,
  };
}
