import { setDisplayLanguage } from '../../src/core/messages';

/** Runs `body` with the display language set to Chinese, as the host does for a zh-cn VS Code; English again after. */
export function inChinese<T>(body: () => T): T {
  setDisplayLanguage('zh');
  try {
    return body();
  } finally {
    setDisplayLanguage('en');
  }
}
