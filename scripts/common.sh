# Shared by the comparison scripts: source it after setting `here` to the repository root.
# Builds the release binary into $bin and offers installers for the outside tools.

cargo build --release --quiet --manifest-path "$here/Cargo.toml"
bin=$here/target/release/puzzle-factory

# Tatham's Keen (Debian package sgt-puzzles): sets $keen, installing it when absent.
ensure_keen() {
  keen=$(command -v sgt-keen || echo /usr/games/sgt-keen)
  [ -x "$keen" ] || { apt-get update -qq && apt-get install -y -qq sgt-puzzles >/dev/null; }
}

# QQWing (Debian package qqwing), installed when absent.
ensure_qqwing() {
  command -v qqwing >/dev/null || { apt-get update -qq && apt-get install -y -qq qqwing >/dev/null; }
}
