import * as vscode from 'vscode';
import type { LogLevelSetting } from './config';
import { t } from '../core/port/messages';

const ORDER: readonly LogLevelSetting[] = ['trace', 'debug', 'info', 'warning', 'error'];

export interface ComponentLog {
  trace(message: string): void;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string, error?: unknown): void;
}

/**
 * The one "Loom" output channel. Every line names its component; `loom.logLevel` drops what is
 * below it, on top of the channel's own level.
 */
export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(private readonly level: () => LogLevelSetting) {
    this.channel = vscode.window.createOutputChannel('Loom', { log: true });
  }

  private enabled(level: LogLevelSetting): boolean {
    return ORDER.indexOf(level) >= ORDER.indexOf(this.level());
  }

  component(name: string): ComponentLog {
    const line = (m: string) => `[${name}] ${m}`;
    return {
      trace: (m) => this.enabled('trace') && this.channel.trace(line(m)),
      debug: (m) => this.enabled('debug') && this.channel.debug(line(m)),
      info: (m) => this.enabled('info') && this.channel.info(line(m)),
      warn: (m) => this.enabled('warning') && this.channel.warn(line(m)),
      error: (m, e) => {
        if (!this.enabled('error')) return;
        const detail = e instanceof Error ? `${e.message}${e.stack ? `\n${e.stack}` : ''}` : e === undefined ? '' : String(e);
        this.channel.error(line(detail ? `${m}: ${detail}` : m));
      },
    };
  }

  show(): void {
    this.channel.show(true);
  }

  /** A short message for the user; the details are in the log, one click away. Never awaited. */
  showError(message: string): void {
    const openLog = t('host.executing.openLog');
    void vscode.window.showErrorMessage(message, openLog).then((choice) => {
      if (choice === openLog) this.show();
    });
  }

  dispose(): void {
    this.channel.dispose();
  }
}
