#!/bin/sh
# Cargo runs this as `rustc-link.sh RUSTC ARGS...` for this package's own
# crates (see config.toml). It adds `-C target-feature=+crt-static
# -C relocation-model=static` to the one rustc call that links the `hookrun`
# executable for x86_64-unknown-linux-gnu, and changes nothing else.
rustc=$1
shift

case " $* " in
*" --crate-type bin "*) ;;
*) exec "$rustc" "$@" ;;
esac
case " $* " in
*" --print"*) exec "$rustc" "$@" ;;
esac
if [ "${CARGO_BIN_NAME:-}" != hookrun ] || [ "${HOOKRUN_LINK:-static}" = dynamic ]; then
    exec "$rustc" "$@"
fi

target=
previous=
for arg in "$@"; do
    case $arg in
    --target=*) target=${arg#--target=} ;;
    esac
    [ "$previous" = --target ] && target=$arg
    previous=$arg
done
[ -n "$target" ] || target=$("$rustc" -vV | sed -n 's/^host: //p')
[ "$target" = x86_64-unknown-linux-gnu ] || exec "$rustc" "$@"

# glibc's static archive is not installed everywhere (Fedora keeps it in
# glibc-static): without it, link as usual and say so.
libc_a=$(${CC:-cc} -print-file-name=libc.a 2>/dev/null)
case $libc_a in
/*) ;;
*)
    echo "warning: libc.a not found (install glibc's static library); hookrun is linked dynamically, which starts slower" >&2
    exec "$rustc" "$@"
    ;;
esac

# The functions a fire runs, placed next to each other (fewer page faults at
# start-up: see tools/bench/startup_order.py). Only lld reads the list, and rustc
# links with its own lld on this target from 1.90 on; `HOOKRUN_LINK_ORDER=off`
# leaves the order to the linker.
list="$(cd "$(dirname "$0")" && pwd)/startup-order.txt"
release=$("$rustc" -vV | sed -n 's/^release: //p')
major=${release%%.*}
minor=${release#*.}
minor=${minor%%.*}
set -- "$@" -C target-feature=+crt-static -C relocation-model=static
if [ -f "$list" ] && [ "${HOOKRUN_LINK_ORDER:-on}" != off ] &&
    { [ "${major:-0}" -gt 1 ] || [ "${minor:-0}" -ge 90 ]; } 2>/dev/null; then
    set -- "$@" -C "link-arg=-Wl,--symbol-ordering-file=$list" -C link-arg=-Wl,--no-warn-symbol-ordering
fi
exec "$rustc" "$@"
