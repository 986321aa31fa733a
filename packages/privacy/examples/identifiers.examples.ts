/**
 * The README's known identifiers (region `known-identifiers`): a redactor given the values an
 * application knows to be identifiers. test/examples.test.ts runs it.
 */
// #region known-identifiers
import { IdentifierLexicon, type Redactor } from '@cloudg/privacy';
// #endregion known-identifiers

export function redactKnown(redactor: Redactor, value: unknown): unknown {
  // #region known-identifiers
  const identifiers = new IdentifierLexicon([
    ['arn:aws:ec2:us-east-1:111111111111:instance/i-0web1', 'aws_arn'],
    ['111111111111', 'aws_account_id'],
    ['bastion', 'resource_name'],
    ['payments-ledger-db', 'resource_name'],
    ['team-falcon-7', 'tag_value'],
  ]);
  const shown = redactor.apply(value, { direction: 'output', report: {}, identifiers });
  // #endregion known-identifiers
  return shown;
}
