import type { MessageTable } from './catalogTypes';

/** AI credits (issue 49): what a run costs as Copilot bills it, and the credits budget. */
export const creditsMessages = {
  'credits.budgetStop': {
    en: 'the credits budget would be passed: {used} of {budget} credits used, and the next request is estimated at {next} credits; raise loom.budget.credits to continue (finished work is kept)',
    zh: '将超出 credits 预算：已用 {used} / {budget} credits，下一个请求预计 {next} credits；提高 loom.budget.credits 后继续（已完成的工作会保留）',
  },
  // An @loom turn the budget stops: nothing is sent to the model; the reason says how far the spec got and what the turn would cost.
  'credits.chatBudgetStop': { en: '@loom did not send /{command} to the model: {reason}.', zh: '@loom 未将 /{command} 发送给模型：{reason}。' },
  // Said once per conversation and spec, above the turn's reply: the turn is still sent.
  'credits.chatNearLimit': {
    en: '{specDir}: {used} of the {budget} AI credits budget used ({percent} %). @loom does not send a turn that would pass it.',
    zh: '{specDir}：已用 {used} / {budget} AI credits 预算（{percent}%）。@loom 不会发送将超出预算的请求。',
  },
  'credits.nearLimit': { en: '{used} of the {budget} credits budget used (80 % or more)', zh: '已用 {used} / {budget} credits 预算（达到或超过 80%）' },
  'credits.unpriced': { en: '{models}: no price known, shown in tokens ({tokens})', zh: '{models}：没有已知价格，以 token 显示（{tokens}）' },
  'credits.budgetStopStart': { en: 'the credits budget would be passed', zh: '将超出 credits 预算' },
  'host.executing.creditsSoFar': { en: '{credits} AI credits so far.', zh: '目前共 {credits} AI credits。' },
  'credits.nearLimitNotice': {
    en: '{feature}: {used} of the {budget} AI credits budget used ({percent} %). The run stops before a step that would pass it.',
    zh: '{feature}：已用 {used} / {budget} AI credits 预算（{percent}%）。运行会在将超出预算的步骤之前停止。',
  },
  'credits.estimate': {
    en: '{task} {role}: estimated {credits} AI credits ({input} tokens in, about {output} out)',
    zh: '{task} {role}：预计 {credits} AI credits（输入 {input} token，输出约 {output}）',
  },
  'credits.estimateUnpriced': {
    en: '{task} {role}: estimated {input} tokens in, about {output} out ({model}: no price known, shown in tokens)',
    zh: '{task} {role}：预计输入 {input} token，输出约 {output}（{model}：没有已知价格，以 token 显示）',
  },
  'credits.stageEstimate': {
    en: 'Estimated before drafting: {credits} AI credits ({input} tokens in, about {output} out).',
    zh: '起草前预计：{credits} AI credits（输入 {input} token，输出约 {output}）。',
  },
  'credits.stageEstimateUnpriced': {
    en: 'Estimated before drafting: {input} tokens in, about {output} out ({model}: no price known, shown in tokens).',
    zh: '起草前预计：输入 {input} token，输出约 {output}（{model}：没有已知价格，以 token 显示）。',
  },
  'credits.stageSpent': { en: 'The drafting cost {credits} AI credits ({input} tokens in, {output} out).', zh: '起草花费 {credits} AI credits（输入 {input} token，输出 {output}）。' },
  'credits.stageSpentUnpriced': {
    en: 'The drafting used {input} tokens in, {output} out ({model}: no price known, shown in tokens).',
    zh: '起草用了输入 {input} token，输出 {output}（{model}：没有已知价格，以 token 显示）。',
  },
  'credits.notKept': { en: 'The drafting’s tokens were not added to pipeline.state.json: {detail}', zh: '起草的 token 未写入 pipeline.state.json：{detail}' },
  'run.transcript.credits': { en: 'AI credits', zh: 'AI credits' },
  'credits.priceFrom': { en: '(price: {source})', zh: '（价格来源：{source}）' },
} as const satisfies MessageTable;
