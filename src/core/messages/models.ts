import type { MessageTable } from './catalogTypes';

/** What the language-model port says of its own failures (src/core/executing/dispatch/retryingChatModel.ts). */
export const modelMessages = {
  'model.gaveUp': {
    en: 'the model could not be reached after {tries} tries (a rate limit or the network): {detail}',
    zh: '尝试 {tries} 次后仍无法连接模型（速率限制或网络问题）：{detail}',
  },
  'model.retrying': {
    en: 'the model failed for a passing reason ({detail}); asking again in {seconds} s (retry {attempt} of {retries})',
    zh: '模型因暂时性原因失败（{detail}）；{seconds} 秒后重试（第 {attempt} 次，共 {retries} 次）',
  },
} as const satisfies MessageTable;
