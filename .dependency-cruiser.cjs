/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules in src/ and webview-ui/ form no import cycle, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'surfaces-through-port',
      severity: 'error',
      comment:
        'The surfaces (src/host with its chat participant and language-model tools, src/cli, src/mcp, src/extension*.ts, webview-ui) enter the core only through src/core/port, its curated API: a rule of the core then holds on every surface. src/shared is not core and stays open to all.',
      from: { path: '^(src/(host|cli|mcp)/|src/extension[^/]*\\.ts$|webview-ui/)' },
      to: { path: '^src/core/', pathNot: '^src/core/port/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
