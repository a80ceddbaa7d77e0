#!/usr/bin/env bash
# Drives `arena jai` as JieqiBox's Match mode does (src/composables/useJaiEngine.ts and
# JaiOptionsDialog.vue of github.com/Velithia/JieqiBox) and checks every answer with the patterns
# its parser uses. Prints the transcript (> sent, < received); exits non-zero on the first
# failure. Fetches nothing.
#
#   scripts/jieqibox/jai.sh [ARENA_BINARY]     # default: target/ci/arena, else target/release/arena
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
arena=${1:-}
if [[ -z $arena ]]; then
    for c in "$root/target/ci/arena" "$root/target/release/arena"; do
        if [[ -x $c ]]; then arena=$c; break; fi
    done
fi
[[ -n $arena && -x $arena ]] || { echo "jai.sh: no arena binary (give its path as \$1)" >&2; exit 2; }

work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
out="$work/match"
mkfifo "$work/in"
"$arena" jai --engine greedy --engine alphabeta:depth=1 >"$work/stdout" 2>"$work/stderr" <"$work/in" &
pid=$!
exec 3>"$work/in"
seen=0   # lines of stdout already shown

fail() { echo "FAIL: $*" >&2; echo "--- stderr:" >&2; cat "$work/stderr" >&2; exit 1; }
send() { echo "> $1"; printf '%s\n' "$1" >&3; }
# Shows new output and waits (at most $2 seconds) until a line matches the ERE $1.
expect() {
    local pattern=$1 limit=${2:-30} start=$SECONDS
    while :; do
        local total
        total=$(wc -l <"$work/stdout")
        if (( total > seen )); then
            sed -n "$((seen + 1)),${total}p" "$work/stdout" | sed 's/^/< /'
            seen=$total
        fi
        grep -Eq "$pattern" "$work/stdout" && return 0
        (( SECONDS - start < limit )) || fail "no line matching /$pattern/ within ${limit}s"
        kill -0 "$pid" 2>/dev/null || fail "arena jai exited while waiting for /$pattern/"
        sleep 0.1
    done
}

# loadEngine: `jai`, wait for `jaiok` (validation), then `isready` / `readyok`.
send "jai"
expect '^jaiok$'
send "isready"
expect '^readyok$'
# parseJaiOptionLine: /option name (.+?) type (.+)/, spin min/max /min (\d+)/ /max (\d+)/.
for name in Engine1 Engine2 TotalRounds Concurrency Nodes Depth MoveTimeMs TimeControl Rules Seed OutDir Resume DisplayDelayMs; do
    grep -Eq "^option name $name type (spin|string|check)" "$work/stdout" || fail "option $name not declared"
done
grep -Eq '^option name TotalRounds type spin default [0-9]+ min [0-9]+ max [0-9]+$' "$work/stdout" \
    || fail "TotalRounds is not a spin JieqiBox reads"
# applySavedSettings / the options dialog: `setoption name X value Y`.
send "setoption name TotalRounds value lots"
expect "^info string option TotalRounds: 'lots'"
send "setoption name TotalRounds value 1"
send "setoption name MoveTimeMs value 0"
send "setoption name DisplayDelayMs value 0"
send "setoption name OutDir value $out"
send "frobnicate"
expect "^info string unknown command 'frobnicate'"
send "isready"
expect '^readyok$'
# startMatch: `startmatch`; the match shows as info game / engine / fen / move / result / wld.
send "startmatch"
expect '^info string match (finished|stopped)' 120
grep -Eq '^info game 1/2$' "$work/stdout" || fail "no info game 1/2"
grep -Eq '^info engine [^ ]+ [^ ]+$' "$work/stdout" || fail "no info engine RED BLACK"
grep -Eq '^info fen [^ ]+ w [^ ]+ [^ ]+ [0-9]+ [0-9]+$' "$work/stdout" || fail "no 6-field info fen"
# The move regex of useJaiEngine.ts: /^(.+?)\s+time\s+(\d+)$/ after `info move `; the move is
# four square characters and the reveal / captured letters.
moves=$(grep -c '^info move ' "$work/stdout" || true)
(( moves > 0 )) || fail "no info move lines"
bad=$(grep '^info move ' "$work/stdout" | grep -Evc '^info move [a-i][0-9][a-i][0-9][rnbakcpRNBAKCP]{0,2} time [0-9]+$' || true)
(( bad == 0 )) || fail "$bad info move lines JieqiBox cannot play"
[[ $(grep -c '^info result ' "$work/stdout") == 2 ]] || fail "not two info result lines"
grep -Eq '^info wld [0-9]+-[0-9]+-[0-9]+$' "$work/stdout" || fail "no info wld W-L-D"
final=$(grep '^info wld ' "$work/stdout" | tail -1 | cut -d' ' -f3)
IFS=- read -r w l d <<<"$final"
(( w + l + d == 2 )) || fail "final W-L-D $final does not count 2 games"
# stopMatch: JieqiBox hears no end, so Stop is pressed after it: the end is said again.
send "stop"
expect '^info wld .*' 5
sleep 0.3
[[ $(grep -c '^info string match finished' "$work/stdout") == 2 ]] || fail "stop does not say the end again"
send "quit"
exec 3>&-
wait "$pid" || fail "arena jai exited with status $?"
# The match's own folder, under OutDir: an ordinary results folder; replay checks its first
# game against the record.
dir=$(grep '^info string match finished' "$work/stdout" | tail -1 | sed 's/.*, in //')
[[ $dir == "$out"/* ]] || fail "the folder $dir is not under OutDir $out"
echo "\$ arena replay DIR --game 1"
"$arena" replay "$dir" --game 1 | tail -1
"$arena" replay "$dir" --game 1 | grep -q identical || fail "replay of game 1 differs"
echo "jai.sh: OK ($moves moves shown, W-L-D $final)"
