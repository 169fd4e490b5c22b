import type { MessageTable } from './catalogTypes';

/** AI credits (issue 49): what a run costs as Copilot bills it, and the credits budget. */
export const creditsMessages = {
  'credits.budgetStop': {
    en: 'the credits budget would be passed: {used} of {budget} credits used, and the next request is estimated at {next} credits; raise loom.budget.credits to continue (finished work is kept)',
    zh: '将超出 credits 预算：已用 {used} / {budget} credits，下一个请求预计 {next} credits；提高 loom.budget.credits 后继续（已完成的工作会保留）',
  },
  'credits.nearLimit': { en: '{used} of the {budget} credits budget used (80 % or more)', zh: '已用 {used} / {budget} credits 预算（达到或超过 80%）' },
  'credits.unpriced': { en: '{models}: no price known, shown in tokens ({tokens})', zh: '{models}：没有已知价格，以 token 显示（{tokens}）' },
  'credits.budgetStopStart': { en: 'the credits budget would be passed', zh: '将超出 credits 预算' },
  'host.executing.creditsSoFar': { en: '{credits} AI credits so far.', zh: '目前共 {credits} AI credits。' },
} as const satisfies MessageTable;
