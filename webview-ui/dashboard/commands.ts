import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { RunCommandMessage } from '../../src/shared/protocol';
import { h } from '../common/dom';
import type { DashboardCommand, NextStepAction } from './nextStepActions';
import { post } from '../common/vscodeApi';

/**
 * A button that runs a palette command through the host, which asks the same confirmations as
 * the palette does. `key` identifies it across re-renders, so focus survives a live update.
 */
export function commandButton(specDir: string, command: DashboardCommand, label: string, options: NextStepAction['options']): HTMLElement {
  return h(
    'vscode-button',
    {
      attrs: { 'data-key': options.key, 'data-command': command.command, secondary: options.secondary, disabled: options.disabled, title: options.title },
      on: {
        click: () => {
          if (!options.disabled) post({ type: 'runCommand', specDir, ...command } as RunCommandMessage);
        },
      },
    },
    label,
  );
}
