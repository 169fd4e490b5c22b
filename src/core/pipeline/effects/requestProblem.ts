import { t } from '../../messages';
import type { PipelineContext } from '../machineTypes';
import type { RefusalCode } from '../refusals';

/** An intent the actor turns down before writing: why, in one sentence, with a stable code. */
export interface RequestProblem {
  message: string;
  code: RefusalCode;
  file?: string;
}

/** A file the write would replace that exists but does not parse: it is somebody's work, never overwritten. */
export function unreadableFile(facts: PipelineContext['facts'], file: string): RequestProblem | undefined {
  const broken = facts.diagnostics.filter((d) => d.file === `${facts.specDir}/${file}` && d.severity === 'error');
  return broken.length ? { message: t('port.fileUnreadable', { file: `${facts.specDir}/${file}`, problems: broken.map((d) => d.message).join('; ') }), code: 'corrupt-file', file } : undefined;
}
