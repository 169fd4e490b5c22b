// Injected before the page's own script (page.addInitScript), with `__init` defined in front:
// { state, reply, themeVars, bodyClass, themeKind }; `reply`, the host's answer to `ready`, as JSON text.
// Stands in for what VS Code gives a webview: acquireVsCodeApi (recording every posted message,
// keeping setState in memory), the theme variables on <html> and the theme class on <body>.
(() => {
  const init = __init;
  const loom = { posted: [], state: init.state, acquired: 0, renders: 0, lastRender: null, csp: [], errors: [] };
  window.__loom = loom;
  window.acquireVsCodeApi = () => {
    if (loom.acquired++) throw new Error('acquireVsCodeApi() may be called only once');
    return {
      postMessage(message) {
        loom.posted.push(JSON.parse(JSON.stringify(message)));
        // Like the host: answer `ready` with the model.
        // Parsed when it is sent, as the host's messages arrive serialized.
        if (message && message.type === 'ready' && init.reply) setTimeout(() => window.postMessage(JSON.parse(init.reply), '*'), 0);
      },
      getState() {
        return loom.state;
      },
      setState(state) {
        loom.state = JSON.parse(JSON.stringify(state));
        return state;
      },
    };
  };
  document.addEventListener('securitypolicyviolation', (e) => loom.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  window.addEventListener('error', (e) => loom.errors.push(String(e.message)));
  document.addEventListener('loom:rendered', (e) => {
    loom.renders++;
    loom.lastRender = e.detail;
    // The first frame painted after the first render: what "time to first render" measures.
    if (loom.renders === 1)
      requestAnimationFrame(() =>
        setTimeout(() => {
          loom.firstPaint = performance.now();
        }, 0),
      );
  });
  const theme = () => {
    for (const [k, v] of Object.entries(init.themeVars)) document.documentElement.style.setProperty(k, v);
  };
  if (document.documentElement) theme();
  document.addEventListener('DOMContentLoaded', () => {
    theme();
    document.body.classList.add(init.bodyClass);
    document.body.dataset.vscodeThemeKind = init.themeKind;
  });
})();
