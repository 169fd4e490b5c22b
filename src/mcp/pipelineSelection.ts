import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Workflow } from '../core/port/files';
import { buildPipelineDefinition, bundledPipelineSchema } from '../core/port/tools';
import { t } from '../core/port/messages';

/**
 * loom's pipeline selector (src/core/pipeline-selector.js) without its optional model call:
 * the workflow's keyword short circuits first, then a fallback by risk. Deterministic, so the
 * same request always proposes the same steps.
 */

const RISK_KEYWORDS = {
  high: ['重构', '架构', '跨模块', '跨服务', 'refactor', 'architecture', 'cross-module'],
  medium: ['多文件', '新功能', 'feature', '依赖', 'integration', '集成'],
  low: ['typo', '错别字', '单文件', '配置', '文档', '小修复'],
};
const ROOT_CAUSE = /根因|root\s*cause|已定位|定位到|根因明确/i;
/** loom's full pipeline, in the order of its schema: the order proposed steps are kept in. */
let stepOrder: string[] | undefined;
const loomStepOrder = () => (stepOrder ??= buildPipelineDefinition(bundledPipelineSchema(), undefined, 'feature').stages.map((st) => st.id));
const OPTIONAL_SIGNALS: Record<'detail-expansion' | 'analyze-artifacts' | 'converge', string[]> = {
  'detail-expansion': [
    '输入',
    '权限',
    '鉴权',
    '授权',
    '写操作',
    '状态',
    '并发',
    '原子',
    '外部依赖',
    '安全',
    '性能',
    '可观测',
    '恢复',
    '兼容',
    '幂等',
    'input',
    'permission',
    'auth',
    'concurrency',
    'security',
    'performance',
    'observability',
    'idempotent',
  ],
  'analyze-artifacts': ['跨模块', '多模块', '跨服务', '架构', '重构', 'cross-module', 'architecture', 'refactor'],
  converge: ['多任务', '多 task', '并行', '跨模块', '多模块', 'multi-task', 'parallel', 'cross-module'],
};

const ShortCircuitSchema = z.looseObject({
  name: z.string().default('rule'),
  steps: z.array(z.string()).min(1),
  match: z.looseObject({ keywords_any: z.array(z.string()).optional(), file_scope_max: z.number().optional(), has_root_cause: z.boolean().optional() }).default({}),
});
const SelectionRulesSchema = z.looseObject({ short_circuits: z.array(ShortCircuitSchema).default([]) });

export interface SelectionSignals {
  keywords: string[];
  file_scope: number;
  has_spec: boolean;
  has_spec_and_requirements: boolean;
  has_root_cause: boolean;
  in_worktree: boolean;
  optional_triggers: Record<string, boolean>;
}

export interface PipelineSelection {
  steps: { id: string }[];
  source: string;
  reasoning: string;
  risk: 'low' | 'medium' | 'high';
  signals: SelectionSignals;
}

function fileScope(text: string): number {
  if (/单文件|single\s*file|typo|错别字/.test(text)) return 1;
  if (/跨模块|跨服务|architecture|架构/.test(text)) return 10;
  if (/多文件|多模块|multi/.test(text)) return 5;
  return 3;
}

function riskOf(s: SelectionSignals): PipelineSelection['risk'] {
  if (s.keywords.some((k) => RISK_KEYWORDS.high.includes(k)) || s.file_scope >= 5) return 'high';
  if (s.keywords.some((k) => RISK_KEYWORDS.medium.includes(k)) || s.file_scope >= 2) return 'medium';
  return 'low';
}

/** A linked git worktree has a `.git` file, the main checkout a `.git` folder. */
function inWorktree(root: string): boolean {
  try {
    return statSync(join(root, '.git')).isFile();
  } catch {
    return false;
  }
}

function fallbackSteps(risk: PipelineSelection['risk'], s: SelectionSignals): string[] {
  const t = s.optional_triggers;
  if (risk === 'low') return ['executing', 'verification'];
  const steps: string[] = [];
  if (risk === 'high' && !s.has_spec) steps.push('brainstorming');
  if (s.has_spec_and_requirements || (risk === 'high' && t['detail-expansion'])) steps.push('detail-expansion');
  steps.push('planning');
  if (s.has_spec_and_requirements || t['analyze-artifacts']) steps.push('analyze-artifacts');
  steps.push('approved');
  if (risk === 'high' && !s.in_worktree) steps.push('git-worktree');
  steps.push('executing');
  if (s.has_spec_and_requirements || t.converge) steps.push('converge');
  steps.push('verification', 'code-review-request', 'review-gate', 'code-review-response', 'synced');
  return steps;
}

export function selectPipeline(request: string, input: { root: string; workflow?: Workflow; specFiles?: ReadonlySet<string> }): PipelineSelection {
  const text = request.toLowerCase();
  const all = [...RISK_KEYWORDS.high, ...RISK_KEYWORDS.medium, ...RISK_KEYWORDS.low];
  const signals: SelectionSignals = {
    keywords: all.filter((k) => text.includes(k.toLowerCase())),
    file_scope: fileScope(text),
    has_spec: input.specFiles?.has('spec.md') ?? false,
    has_spec_and_requirements: (input.specFiles?.has('spec.md') && input.specFiles.has('requirements.json')) ?? false,
    has_root_cause: ROOT_CAUSE.test(request),
    in_worktree: inWorktree(input.root),
    optional_triggers: Object.fromEntries(Object.entries(OPTIONAL_SIGNALS).map(([step, words]) => [step, words.some((w) => text.includes(w.toLowerCase()))])),
  };
  const risk = riskOf(signals);
  const rules = SelectionRulesSchema.safeParse((input.workflow as { selection_rules?: unknown } | undefined)?.selection_rules ?? {});
  const rule = (rules.success ? rules.data.short_circuits : []).find((r) => {
    if (r.match.keywords_any && !r.match.keywords_any.some((k) => text.includes(k.toLowerCase()))) return false;
    if (r.match.file_scope_max !== undefined && signals.file_scope > r.match.file_scope_max) return false;
    if (r.match.has_root_cause !== undefined && signals.has_root_cause !== r.match.has_root_cause) return false;
    return true;
  });
  const ordered = (ids: string[]) => [...new Set(ids)].sort((a, b) => rank(a) - rank(b)).map((id) => ({ id }));
  // `source` and `risk` are stable English words; `reasoning` is for the person, in the display language.
  if (rule) return { steps: ordered(rule.steps), source: `short-circuit:${rule.name}`, reasoning: t('mcp.select.rule', { rule: rule.name }), risk, signals };
  const hit = Object.entries(signals.optional_triggers)
    .filter(([, v]) => v)
    .map(([k]) => k);
  const why = t(({ low: 'mcp.select.why.low', medium: 'mcp.select.why.medium', high: 'mcp.select.why.high' } as const)[risk]);
  const reasoning = hit.length ? t('mcp.select.withOptional', { why, steps: hit.join(', ') }) : why;
  return { steps: ordered(fallbackSteps(risk, signals)), source: `fallback:${risk}-risk`, reasoning, risk, signals };
}

/** Steps loom knows are kept in loom's order; steps of the workflow's own follow, in the order given. */
const rank = (id: string) => {
  const order = loomStepOrder();
  return order.includes(id) ? order.indexOf(id) : order.length;
};
