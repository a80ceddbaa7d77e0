#!/usr/bin/env bash
# Regenerates the font the game viewer embeds for its Chinese characters (the pieces and the
# river), so that the pages read the same on a machine with no Chinese font (a server, a
# container, WSL, CI): a subset of Noto Serif CJK TC Bold (SIL Open Font License 1.1) from
# Debian's fonts-noto-cjk, with only the characters the pages draw.
#
# Usage: scripts/make-piece-font.sh [--check]
#   (no argument)  writes crates/arena/src/report/viewer/fonts/jieqi-pieces.woff2 and its
#                  LICENSE.txt (the font's copyright notice and the OFL's text)
#   --check        writes them to a temporary folder and says whether the committed ones
#                  are the same (exit 1 when they differ)
#
# Needs Debian's apt-get (the package is downloaded and unpacked, not installed: the machine
# stays without Chinese fonts), dpkg-deb, and /usr/bin/python3 with fontTools and brotli
# (apt-get install python3-fonttools python3-brotli). The characters are CHARS below: when the
# viewer draws a new one (viewer.js), add it here and run the script; the viewer's tests check
# that every character the page draws is in the font.
set -euo pipefail

usage() {
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

die() {
    echo "make-piece-font.sh: $*" >&2
    exit 2
}

check=false
case "${1:-}" in
    -h|--help) usage; exit 0 ;;
    --check) check=true ;;
    "") ;;
    *) usage >&2; exit 2 ;;
esac

# Red's pieces, Black's pieces, the river's words, and the '?' of a captured piece whose
# identity is not known.
CHARS='帥仕相傌俥炮兵將士象馬車砲卒楚河漢界?'
PACKAGE=fonts-noto-cjk
TTC=NotoSerifCJK-Bold.ttc
FACE='Noto Serif CJK TC Bold'

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/crates/arena/src/report/viewer/fonts"
python=/usr/bin/python3
[[ -x "$python" ]] || die "no $python (Debian's, which has python3-fonttools)"
"$python" -c 'import fontTools.subset, brotli' 2>/dev/null ||
    die "$python lacks fontTools or brotli: apt-get install python3-fonttools python3-brotli"
command -v apt-get >/dev/null || die "no apt-get: run this on Debian or Ubuntu"
command -v dpkg-deb >/dev/null || die "no dpkg-deb"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# apt-get download writes as the _apt user where it can: let it.
chmod 777 "$work"
(cd "$work" && apt-get download "$PACKAGE" >/dev/null) ||
    die "apt-get download $PACKAGE failed (run apt-get update first?)"
dpkg-deb -x "$work"/"$PACKAGE"_*.deb "$work/x"
ttc="$(find "$work/x" -name "$TTC" | head -n 1)"
[[ -n "$ttc" ]] || die "$PACKAGE has no $TTC"
version="$(dpkg-deb -f "$work"/"$PACKAGE"_*.deb Version)"

out="$dest"
$check && out="$work/out"
mkdir -p "$out"

"$python" - "$ttc" "$FACE" "$CHARS" "$out" "$PACKAGE $version" "$work/x" <<'EOF'
import sys
from fontTools.ttLib import TTCollection
from fontTools import subset

ttc, face, chars, out, package, unpacked = sys.argv[1:]
fonts = TTCollection(ttc).fonts
number = next((i for i, f in enumerate(fonts) if f["name"].getDebugName(4) == face), None)
if number is None:
    sys.exit(f"make-piece-font.sh: no face named {face!r} in {ttc}")
options = subset.Options()
options.flavor = "woff2"
options.name_IDs = ["*"]
options.layout_features = []
options.desubroutinize = True
options.recalc_timestamp = False
options.font_number = number
font = subset.load_font(ttc, options)
subsetter = subset.Subsetter(options)
subsetter.populate(text=chars)
subsetter.subset(font)
cmap = font.getBestCmap()
missing = [c for c in chars if ord(c) not in cmap]
if missing:
    sys.exit(f"make-piece-font.sh: {face} has no glyph for {''.join(missing)}")
subset.save_font(font, f"{out}/jieqi-pieces.woff2", options)

notice = font["name"].getDebugName(0)
# The OFL's text as Debian's copyright file gives it (one space of indent, '.' for a blank line).
text, inside = [], False
for line in open(f"{unpacked}/usr/share/doc/fonts-noto-cjk/copyright", encoding="utf-8"):
    if line.rstrip() == "License: SIL-1.1":
        inside = True
        continue
    if inside and not line.startswith(" "):
        # The first "License: SIL-1.1" is a Files stanza's field, with no text under it.
        if text:
            break
        inside = False
        continue
    if inside:
        body = line[1:].rstrip("\n")
        text.append("" if body == "." else body)
if not any("SIL OPEN FONT LICENSE" in l for l in text):
    sys.exit("make-piece-font.sh: no SIL OFL text in the package's copyright file")
with open(f"{out}/LICENSE.txt", "w", encoding="utf-8") as f:
    f.write(
        f"jieqi-pieces.woff2 is a subset of {face} ({package}, Debian), made by\n"
        f"scripts/make-piece-font.sh: only the glyphs of {chars}\n"
        f"(the viewer's pieces, the river and '?'), as WOFF2. Its copyright notice:\n\n"
        f"{notice}\n\n"
        "It is licensed, as the font it comes from, under the SIL Open Font License 1.1:\n\n"
    )
    f.write("\n".join(text).strip("\n") + "\n")
EOF

if $check; then
    same=true
    for f in jieqi-pieces.woff2 LICENSE.txt; do
        cmp -s "$out/$f" "$dest/$f" || { echo "differs: $dest/$f" >&2; same=false; }
    done
    $same || exit 1
    echo "the committed piece font is what $PACKAGE $version gives"
else
    echo "wrote $dest/jieqi-pieces.woff2 ($(wc -c <"$dest/jieqi-pieces.woff2") bytes) and LICENSE.txt from $PACKAGE $version"
fi
