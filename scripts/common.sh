# Shared by the comparison scripts: source it after setting `here` to the repository root.
# Builds the release binary into $bin and offers installers for the outside tools.
# BIN=/path/to/puzzle-factory: use that binary as $bin and skip the cargo build.

if [ -n "${BIN:-}" ]; then
  [ -x "$BIN" ] || { echo "BIN=$BIN is not an executable" >&2; exit 2; }
  # absolute: scripts change into their own work folders
  bin=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
else
  cargo build --release --quiet --manifest-path "$here/Cargo.toml"
  bin=$here/target/release/puzzle-factory
fi

# Tatham's Keen (Debian package sgt-puzzles): sets $keen, installing it when absent.
ensure_keen() {
  keen=$(command -v sgt-keen || echo /usr/games/sgt-keen)
  [ -x "$keen" ] || { apt-get update -qq && apt-get install -y -qq sgt-puzzles >/dev/null; }
}

# Tatham's Solo (Debian package sgt-puzzles): sets $solo, installing it when absent.
ensure_solo() {
  solo=$(command -v sgt-solo || echo /usr/games/sgt-solo)
  [ -x "$solo" ] || { apt-get update -qq && apt-get install -y -qq sgt-puzzles >/dev/null; }
}

# A Python that imports pencilmark (pip, pre-release): sets $py to PENCILMARK_PY when given,
# else to a venv in DIR/venv, made and filled once. Exits 2 when it cannot import pencilmark.
ensure_pencilmark() {
  py=${PENCILMARK_PY:-}
  if [ -z "$py" ]; then
    py=$1/venv/bin/python
    if ! { [ -x "$py" ] && "$py" -c 'import pencilmark' 2>/dev/null; }; then
      echo "== installing pencilmark into $1/venv" >&2
      python3 -m venv "$1/venv"
      "$py" -m pip install --quiet --pre pencilmark
    fi
  fi
  "$py" -c 'import pencilmark' || { echo "$(basename "$0"): $py cannot import pencilmark" >&2; exit 2; }
}

# QQWing (Debian package qqwing), installed when absent.
ensure_qqwing() {
  command -v qqwing >/dev/null || { apt-get update -qq && apt-get install -y -qq qqwing >/dev/null; }
}

# Numbers: `calc EXPR` evaluates with Python, `median` reads numbers one per line,
# `secs CMD...` prints the wall seconds CMD took (its output discarded).
calc() { python3 -c "print($1)"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); calc "$e - $s"; }
