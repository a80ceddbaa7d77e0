#!/usr/bin/env bash
# Renders an HTML page to a PNG with headless Chromium, to look at a report as a person would.
#
# Usage: scripts/screenshot.sh FILE.html OUT.png [WIDTHxHEIGHT]
#   FILE.html      the page (a local file; its own relative links and no network are needed)
#   OUT.png        where to write the screenshot
#   WIDTHxHEIGHT   window size in CSS pixels (default 1280x2400); the page is cut at HEIGHT
#
# Exits 0 after writing OUT.png, 2 on bad arguments or when Chromium wrote no picture, and 77
# (the "skipped" status of automake-style test drivers) when no chromium, chromium-browser or
# google-chrome binary is on PATH, so tests can skip.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

die() {
    echo "screenshot.sh: $*" >&2
    exit 2
}

case "${1:-}" in
    -h|--help) usage; exit 0 ;;
esac
[[ $# -ge 2 && $# -le 3 ]] || { usage >&2; exit 2; }

page="$1"
out="$2"
size="${3:-1280x2400}"
[[ "$size" =~ ^([0-9]+)x([0-9]+)$ ]] || die "size must be WIDTHxHEIGHT, e.g. 1280x2400 (got '$size')"
width="${BASH_REMATCH[1]}"
height="${BASH_REMATCH[2]}"
(( width > 0 && height > 0 )) || die "size must be positive (got '$size')"
[[ -f "$page" ]] || die "no such file: $page"

browser=""
for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser="$(command -v "$candidate")"
        break
    fi
done
if [[ -z "$browser" ]]; then
    echo "screenshot.sh: no chromium, chromium-browser or google-chrome on PATH; skipping" >&2
    exit 77
fi

abs_page="$(cd "$(dirname "$page")" && pwd)/$(basename "$page")"
out_dir="$(dirname "$out")"
mkdir -p "$out_dir"
abs_out="$(cd "$out_dir" && pwd)/$(basename "$out")"
rm -f "$abs_out"

# A private profile keeps runs independent of each other and of any desktop session.
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT

# Characters that would end or change a file URL's path.
url_path="${abs_page//%/%25}"
url_path="${url_path// /%20}"
url_path="${url_path//#/%23}"
url_path="${url_path//\?/%3F}"

log="$profile/chromium.log"
if ! "$browser" --headless --disable-gpu --no-sandbox --hide-scrollbars \
    --user-data-dir="$profile" --no-first-run --no-default-browser-check \
    --window-size="$width,$height" --screenshot="$abs_out" "file://$url_path" >"$log" 2>&1; then
    cat "$log" >&2
    die "$browser failed"
fi
[[ -s "$abs_out" ]] || { cat "$log" >&2; die "no screenshot written to $abs_out"; }
echo "$abs_out"
