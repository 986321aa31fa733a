/** The README's custom detector (region `custom-detector`); test/examples.test.ts runs it. */
// #region custom-detector
import { compileCustomDetector } from '@cloudg/privacy';
// #endregion custom-detector

export function jiraTicketDetector() {
  // #region custom-detector
  const detector = compileCustomDetector({
    name: 'jira_ticket',
    entity: 'ticket_id',
    category: 'internal',
    pattern: '\\b(?:SECOPS|INFRA)-\\d{2,6}\\b',
    hints: ['secops-', 'infra-'],
    confidence: 0.9,
  });
  // #endregion custom-detector
  return detector;
}
