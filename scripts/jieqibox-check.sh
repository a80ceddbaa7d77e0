#!/usr/bin/env bash
# Drives jieqi-uci with the command sequences JieqiBox sends (src/composables/useUciEngine.ts and
# the components that call it) and checks every answer: uciok, readyok, every `info` line as
# JieqiBox parses it (`score (cp|mate) N`, the moves after ` pv `), every `bestmove` legal in the
# position it was asked for (its `go perft 1` list) and answered, after `stop` for an infinite
# search. Modes:
#   analysis   engine load (uci, isready, the saved setoption lines, ucinewgame, isready), then
#              `position fen FEN [moves …]` + `go infinite` + `stop`, in the new 6-field and the
#              legacy 7-field FEN ("new FEN format" off), and `go movetime 1000`;
#   variation  the Variation button: stop, then `go infinite searchmoves <every legal move but the
#              ones shown>`, twice; arrow analysis: `go infinite searchmoves <the arrows>`;
#   human-ai   the engine plays Black for six moves: `position fen <the FEN after the last reveal,
#              with the engine's pool> moves <the moves since>` + `go movetime 300` (or `go wtime
#              T btime T movestogo 1`), answered without `stop`; from the fourth move on with
#              ponder on: `go infinite` on the human's turn, `stop` when the human has moved.
# A transcript of each mode is printed (and kept under --out DIR). Then scripts/jieqibox/jai.sh
# (JieqiBox's Match mode against `arena jai`) runs if it exists. Exit status: non-zero on any
# failure here or there. Nothing is fetched.
#
# Usage: scripts/jieqibox-check.sh [--bin PATH] [--out DIR]
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
# shellcheck source=lib/args.sh
source "$here/lib/args.sh"
bin=""
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) need "$@"; bin="$(absolute "$2")"; shift 2 ;;
        --out) need "$@"; out="$(absolute "$2")"; shift 2 ;;
        -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) usage_error "unknown argument '$1' (see --help)" ;;
    esac
done
if [ -z "$bin" ]; then
    for b in "$root/target/ci/jieqi-uci" "$root/target/release/jieqi-uci"; do
        if [ -x "$b" ]; then bin="$b"; break; fi
    done
fi
if [ -z "$bin" ]; then
    echo "jieqibox-check: building jieqi-uci (cargo build --profile ci -p jieqi-uci)" >&2
    (cd "$root" && cargo build --profile ci -p jieqi-uci) || exit 1
    bin="$root/target/ci/jieqi-uci"
fi
if [ ! -x "$bin" ]; then
    echo "jieqibox-check: '$bin' is not an executable" >&2
    exit 2
fi
[ -n "$out" ] && mkdir -p "$out"

failures=0
transcript=""
last_lines=()
# A write to an engine that has exited fails (the check then reports it) instead of ending the
# script.
trap '' PIPE

fail() {
    echo "FAIL [$mode]: $*" >&2
    transcript+="!! FAIL: $*"$'\n'
    failures=$((failures + 1))
}

start_engine() {
    coproc ENGINE { "$bin" 2>&1; }
}

# Whether the engine still runs; if not, the check fails and ends here, with its verdict.
alive() {
    [ -n "${ENGINE[1]:-}" ] && [ -n "${ENGINE[0]:-}" ] && return 0
    fail "the engine ($bin) has exited"
    finish_mode
    echo "jieqibox-check: jieqi-uci: $failures failure(s)"
    exit 1
}

stop_engine() {
    if [ -n "${ENGINE_PID:-}" ]; then
        echo quit >&"${ENGINE[1]}" 2>/dev/null
        wait "$ENGINE_PID" 2>/dev/null
    fi
}

send() {
    transcript+="> $1"$'\n'
    alive
    echo "$1" >&"${ENGINE[1]}" 2>/dev/null || fail "cannot send '$1': the engine has exited"
}

# Checks one line as JieqiBox reads it.
check_line() {
    local l="$1"
    case "$l" in
        "info string"*) ;;
        info*)
            if [[ ! "$l" =~ \ score\ (cp|mate)\ -?[0-9]+ ]]; then
                fail "info line without 'score cp|mate N': $l"
            fi
            if [[ ! "$l" =~ ^info\ depth\ [0-9]+ ]]; then
                fail "info line without a depth: $l"
            fi
            if [[ "$l" == *" pv "* ]]; then
                local pv="${l#* pv }" m
                for m in $pv; do
                    [[ "$m" =~ ^[a-i][0-9][a-i][0-9]$ ]] || fail "pv move '$m' in: $l"
                done
            fi
            ;;
        bestmove*)
            [[ "$l" =~ ^bestmove\ ([a-i][0-9][a-i][0-9]|\(none\))$ ]] || fail "malformed: $l"
            ;;
    esac
}

# Reads lines until one matches the regex $1, within $2 seconds; they are in last_lines.
expect() {
    local pattern="$1" within="$2" line deadline=$((SECONDS + $2))
    last_lines=()
    while :; do
        local left=$((deadline - SECONDS))
        alive
        if [ "$left" -le 0 ] || ! IFS= read -r -t "$left" line <&"${ENGINE[0]}"; then
            fail "no line matching /$pattern/ within ${within}s"
            return 1
        fi
        transcript+="< $line"$'\n'
        last_lines+=("$line")
        check_line "$line"
        if [[ "$line" =~ $pattern ]]; then
            return 0
        fi
    done
}

# The legal moves (from-to) of the position set by `position $1`, from `go perft 1`; not logged.
legal=()
legal_moves() {
    alive
    echo "position $1" >&"${ENGINE[1]}"
    echo "go perft 1" >&"${ENGINE[1]}"
    legal=()
    local line
    while IFS= read -r -t 10 line <&"${ENGINE[0]}"; do
        case "$line" in
            "Nodes searched"*) break ;;
            [a-i][0-9][a-i][0-9]*:*)
                # A hidden mover is listed once per identity: keep each move once.
                [[ " ${legal[*]} " == *" ${line:0:4} "* ]] || legal+=("${line:0:4}")
                ;;
        esac
    done
    # The rest of perft's answer (its info string).
    IFS= read -r -t 10 line <&"${ENGINE[0]}"
}

# The FEN jieqi-uci holds after `position $1` (`d`), not logged; refused positions fail.
fen_of() {
    alive
    echo "position $1" >&"${ENGINE[1]}"
    echo "d" >&"${ENGINE[1]}"
    local line refused=0
    fen=""
    while IFS= read -r -t 10 line <&"${ENGINE[0]}"; do
        case "$line" in
            *refused*) refused=1 ;;
            "Fen: "*) fen="${line#Fen: }" ;;
            "Side to move"*) break ;;
        esac
    done
    # A refused position keeps the previous one, which `d` then shows.
    [ "$refused" = 0 ] || fen=""
}

# Checks that the last bestmove is one of the legal moves of `position $1` (and of "$2…" if set).
check_best() {
    local pos="$1"; shift
    local best="${last_lines[${#last_lines[@]}-1]#bestmove }"
    legal_moves "$pos"
    local m ok=0
    for m in "${legal[@]}"; do [ "$m" = "$best" ] && ok=1; done
    [ "$ok" = 1 ] || fail "bestmove $best is not legal after 'position $pos'"
    if [ $# -gt 0 ]; then
        ok=0
        for m in "$@"; do [ "$m" = "$best" ] && ok=1; done
        [ "$ok" = 1 ] || fail "bestmove $best is not among the searchmoves $*"
    fi
    best_move="$best"
}

# What JieqiBox sends when it loads an engine: uci (isready on uciok), its saved options, then
# ucinewgame + isready.
load_engine() {
    send "uci"
    expect '^uciok$' 5 || return
    send "isready"
    expect '^readyok$' 5
    send "setoption name Threads value 1"
    send "setoption name Hash value 16"
    send "setoption name Contempt value -300"
    send "ucinewgame"
    send "isready"
    expect '^readyok$' 5
    local l
    for l in "${last_lines[@]}"; do
        [[ "$l" == *refused* ]] && fail "$l"
    done
}

finish_mode() {
    echo "=== $mode ==="
    printf '%s' "$transcript"
    [ -n "$out" ] && printf '%s' "$transcript" > "$out/$mode.txt"
    transcript=""
}

board="xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX"
pool="R2r2N2n2B2b2A2a2C2c2P5p5"
new_fen="$board w $pool - 0 1"
old_fen="$board $pool w - - 0 1"

# --- analysis -----------------------------------------------------------------------------------
mode=analysis
start_engine
load_engine
for pos in "fen $new_fen" "fen $old_fen" "fen $new_fen moves h2e2C h9g7n"; do
    send "position $pos"
    send "go infinite"
    sleep 0.5
    send "stop"
    expect '^bestmove' 10 && check_best "$pos"
done
send "position fen $new_fen moves h2e2C"
send "go movetime 1000"
expect '^bestmove' 10 && check_best "fen $new_fen moves h2e2C"
stop_engine
finish_mode

# --- variation and arrow analysis --------------------------------------------------------------
mode=variation
start_engine
load_engine
pos="fen $new_fen moves h2e2C h9g7n"
send "position $pos"
send "go infinite"
sleep 0.5
shown=()
for round in 1 2; do
    send "stop"
    expect '^bestmove' 10 && check_best "$pos"
    shown+=("$best_move")
    legal_moves "$pos"
    rest=()
    for m in "${legal[@]}"; do
        skip=0
        for s in "${shown[@]}"; do [ "$s" = "$m" ] && skip=1; done
        [ "$skip" = 0 ] && rest+=("$m")
    done
    send "position $pos"
    send "go infinite searchmoves ${rest[*]}"
    sleep 0.5
done
send "stop"
expect '^bestmove' 10 && check_best "$pos" "${rest[@]}"
# Arrows drawn on two moves.
arrows=("${legal[0]}" "${legal[${#legal[@]}-1]}")
send "position $pos"
send "go infinite searchmoves ${arrows[*]}"
sleep 0.5
send "stop"
expect '^bestmove' 10 && check_best "$pos" "${arrows[@]}"
stop_engine
finish_mode

# --- human vs AI -------------------------------------------------------------------------------
mode=human-ai
start_engine
load_engine
# As JieqiBox's AnalysisSidebar.vue (baseFenForEngine, engineMovesSinceLastReveal) sends it: the FEN
# recorded after the last move that changed the number of hidden pieces (a reveal, or the capture of
# a hidden piece), with the engine's view of the pool, then the moves played since. The human
# (Red) opens. With "ponder" on, and no ponder move in our bestmove, JieqiBox ponders "infinitely":
# `go infinite` on the human's turn, `stop` (its bestmove ignored) once the human has moved.
hidden_count() {
    local board="${1%% *}"
    local only="${board//[^xX]/}"
    echo "${#only}"
}
base="$new_fen"
since=()
cur="$new_fen"
# Plays move $1 from the current position: records it as JieqiBox's history does.
record() {
    fen_of "fen $cur moves $1"
    [ -n "$fen" ] || return 1
    if [ "$(hidden_count "$fen")" != "$(hidden_count "$cur")" ]; then
        base="$fen"
        since=()
    else
        since+=("$1")
    fi
    cur="$fen"
}
engine_position() {
    if [ ${#since[@]} -gt 0 ]; then
        echo "fen $base moves ${since[*]}"
    else
        echo "fen $base"
    fi
}
human="h2e2C"
pondering=0
for turn in 1 2 3 4 5 6; do
    if [ "$pondering" = 1 ]; then
        # The human has moved: the ponder search is stopped and its answer ignored.
        send "stop"
        expect '^bestmove' 10 || break
        pondering=0
    fi
    record "$human" || { fail "the script's own move $human was refused"; break; }
    pos="$(engine_position)"
    send "position $pos"
    if [ "$turn" = 2 ]; then
        send "go wtime 5000 btime 5000 movestogo 1"
    else
        send "go movetime 300"
    fi
    expect '^bestmove' 10 && check_best "$pos" || break
    # The engine's move as JieqiBox plays it: a hidden piece's reveal letter is drawn by the GUI.
    played=""
    for s in "" n r b a c p; do
        if record "$best_move$s"; then played="$best_move$s"; break; fi
    done
    [ -n "$played" ] || { fail "cannot play $best_move"; break; }
    # The human's reply: the first legal move that reveals and captures nothing hidden (so that
    # the moves since the last reveal grow), else the first one, revealed as the first letter
    # that fits.
    legal_moves "fen $cur"
    # The engine's move ended the game (the human has no move): the variation is over.
    [ "${#legal[@]}" -gt 0 ] || { echo "variation: the game ended after the engine's move of turn $turn"; break; }
    human=""
    for m in "${legal[@]}"; do
        fen_of "fen $cur moves $m"
        if [ -n "$fen" ] && [ "$(hidden_count "$fen")" = "$(hidden_count "$cur")" ]; then
            human="$m"
            break
        fi
    done
    if [ -z "$human" ]; then
        for s in "" R N B A C P; do
            fen_of "fen $cur moves ${legal[0]}$s"
            if [ -n "$fen" ]; then human="${legal[0]}$s"; break; fi
        done
    fi
    [ -n "$human" ] || { fail "no human move after $played"; break; }
    # From turn 4 on, "ponder" is on: the engine thinks on the human's time until the human moves.
    if [ "$turn" -ge 4 ]; then
        send "position $(engine_position)"
        send "go infinite"
        pondering=1
        sleep 0.3
    fi
done
stop_engine
finish_mode

status=0
[ "$failures" -eq 0 ] || status=1
echo "jieqibox-check: jieqi-uci: $failures failure(s)"

# --- Match mode (another script: JieqiBox's JAI protocol against `arena jai`) -------------------
if [ -f "$here/jieqibox/jai.sh" ]; then
    echo "=== match (scripts/jieqibox/jai.sh) ==="
    bash "$here/jieqibox/jai.sh"
    jai=$?
    echo "jieqibox-check: jai.sh exited $jai"
    [ "$jai" -eq 0 ] || status=$jai
fi
exit "$status"
