# shellcheck shell=bash
# How the scripts in scripts/ find the arena binary and cargo (sourced, not run). Every script
# takes the same arena, the first of:
#   1. $ARENA, if set: a path (taken from the current directory) or a command name on PATH;
#   2. target/release/arena of this repository, if it is built;
#   3. arena on PATH (cargo install --path crates/arena puts it in ~/.cargo/bin).

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

# build_arena ROOT BUILD: prints the arena a script that builds uses. With ARENA set, or BUILD 0
# (--no-build), the one find_arena finds, unbuilt; else cargo build --release -p arena in ROOT
# (cargo found by tool_path's PATH), then ROOT/target/release/arena. On failure says why on
# stderr ("<script>: ...") and returns 2, or cargo's status.
build_arena() {
    local root="$1" build="$2" status=0
    if [[ -n "${ARENA:-}" || "$build" -eq 0 ]]; then
        find_arena "$root" && return 0
        echo "$(basename "$0"): $(no_arena_message "$root")" >&2
        return 2
    fi
    tool_path
    if ! command -v cargo >/dev/null; then
        echo "$(basename "$0"): cargo not found on PATH, in /usr/local/bin or ~/.cargo/bin (install Rust: https://rustup.rs); or give --no-build to use an arena that is built or on PATH, or ARENA=/path/to/arena" >&2
        return 2
    fi
    (cd "$root" && cargo build --release -p arena --quiet) >&2 || status=$?
    [[ $status -eq 0 ]] || return "$status"
    printf '%s\n' "$root/target/release/arena"
}
