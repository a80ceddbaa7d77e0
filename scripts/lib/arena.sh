# shellcheck shell=bash
# How the scripts in scripts/ find the arena binary and cargo (sourced, not run). Every script
# takes the same arena, the first of:
#   1. $ARENA, if set: a path (taken from the current directory) or a command name on PATH;
#   2. target/release/arena of this repository, if it is built;
#   3. arena on PATH (cargo install --path crates/arena puts it in ~/.cargo/bin).

# The order above, one line, for a script's messages.
arena_order="ARENA=/path/to/arena if set, else target/release/arena of this repository if built, else arena on PATH"

# tool_path: adds to PATH, after what it holds, the folders where tools are installed that cron's
# PATH (/usr/bin:/bin) leaves out: /usr/local/bin, then cargo's ($CARGO_HOME/bin, ~/.cargo/bin).
tool_path() {
    local d
    for d in /usr/local/bin ${CARGO_HOME:+"$CARGO_HOME/bin"} ${HOME:+"$HOME/.cargo/bin"}; do
        [[ -d "$d" && ":$PATH:" != *":$d:"* ]] && PATH="$PATH:$d"
    done
    export PATH
}

# find_arena ROOT: prints the absolute path of the arena binary (the order above; ROOT is the
# repository); prints nothing and returns 1 when there is none: $ARENA names no executable file,
# or it is unset and neither ROOT/target/release/arena nor arena on PATH exists.
find_arena() {
    local root="$1" a
    if [[ -n "${ARENA:-}" ]]; then
        a="$ARENA"
        if [[ "$a" != */* ]]; then
            a="$(command -v -- "$a" || true)"
        elif [[ "$a" != /* ]]; then
            a="$PWD/$a"
        fi
    elif [[ -x "$root/target/release/arena" && ! -d "$root/target/release/arena" ]]; then
        a="$root/target/release/arena"
    else
        a="$(command -v arena || true)"
    fi
    [[ -n "$a" && -x "$a" && ! -d "$a" ]] || return 1
    printf '%s/%s\n' "$(cd "$(dirname -- "$a")" && pwd)" "$(basename -- "$a")"
}

# no_arena_message ROOT: why find_arena found nothing, and what to do.
no_arena_message() {
    if [[ -n "${ARENA:-}" ]]; then
        echo "ARENA='$ARENA' is no executable file (nor a command on PATH)"
    else
        echo "no arena binary: none at $1/target/release/arena and none on PATH; build it" \
            "with 'cargo build --release -p arena', or set ARENA=/path/to/arena"
    fi
}
