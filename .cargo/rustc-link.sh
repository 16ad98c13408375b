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

exec "$rustc" "$@" -C target-feature=+crt-static -C relocation-model=static
