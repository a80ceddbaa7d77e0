# Argument checks shared by the scripts in scripts/ (sourced, not run). Each refuses a bad
# argument with one line on stderr naming the flag, "<script>: <what is wrong>", and exit 2, the
# scripts' documented status for bad usage.

# usage_error MESSAGE: prints "<script>: MESSAGE" on stderr and exits 2.
usage_error() {
    echo "$(basename "$0"): $*" >&2
    exit 2
}

# need FLAG "$@" (called with the remaining arguments, FLAG first): FLAG's value is given and not
# empty.
need() {
    [[ $# -ge 2 && -n "$2" ]] || usage_error "$1 needs a value (see --help)"
}

# whole FLAG VALUE [MIN]: VALUE is a whole number of MIN (default 1) or more, at most 9 digits.
whole() {
    local min="${3:-1}"
    [[ "$2" =~ ^[0-9]{1,9}$ ]] && (( 10#$2 >= min )) ||
        usage_error "$1 '$2' is not a whole number of $min or more (see --help)"
}

# absolute PATH: prints PATH made absolute against the current directory, so that a path the user
# typed keeps its meaning after the script changes directory.
absolute() {
    case "$1" in
        /*) printf '%s\n' "$1" ;;
        *) printf '%s/%s\n' "$PWD" "$1" ;;
    esac
}
