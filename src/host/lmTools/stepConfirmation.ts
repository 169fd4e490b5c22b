import * as vscode from 'vscode';
import { stageOf } from '../../core/pipeline/pipelineDefinition';
import type { TransitionCheck } from '../../core/pipeline/transitionCheck';
import type { SpecEntry } from '../specs/specRegistry';
import { featureOf } from './toolSpec';

/**
 * What VS Code shows the person before a tool moves a spec, as Loom: Advance asks: the spec,
 * from → to, the outputs of the stage being left (✓ there, ✗ missing), what must be checked by
 * hand, the files whose sha256 an approval records, and what is stale.
 */
export function stepConfirmation(e: SpecEntry, from: string, check: TransitionCheck, approve: boolean): vscode.LanguageModelToolConfirmationMessages {
  const feature = featureOf(e);
  const title = approve ? vscode.l10n.t('Approve {0} of {1} and move it to {2}?', from, feature, check.to) : vscode.l10n.t('Leave {0} of {1} and move it to {2}?', from, feature, check.to);
  const lines = [`**${e.spec.snapshot.specDir}**: \`${from}\` → \`${check.to}\``];
  const outputs = e.overview.stages.find((s) => s.id === from)?.outputs ?? [];
  lines.push(outputs.length ? vscode.l10n.t('Outputs of {0}: {1}', from, outputs.map((o) => `\`${o.path}\` ${o.exists ? '✓' : '✗'}`).join(', ')) : vscode.l10n.t('{0} has no file outputs.', from));
  for (const c of check.confirmations) lines.push(`- ${c}`);
  const stage = stageOf(e.spec.definition, from);
  if (stage?.humanApproval && check.kind === 'forward') {
    const files = (stage.approvalRequires.length ? stage.approvalRequires : stage.outputs).filter((p) => !p.endsWith('/') && p !== 'traceability.json');
    if (files.length) lines.push(vscode.l10n.t('Approving records the sha256 of {0}; a later change needs re-approval.', files.join(', ')));
  }
  for (const d of e.staleness.derived) lines.push(`⚠ ${vscode.l10n.t('{0} is older than {1}, which it is derived from.', d.output, d.input)}`);
  lines.push(vscode.l10n.t('The agent asked for this step; continuing records it in the stage history as confirmed by you.'));
  return { title, message: new vscode.MarkdownString(lines.join('\n\n')) };
}
