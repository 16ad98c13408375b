# Sourced by the cross scripts (check-target.sh, arm64-test.sh, dist.sh for a
# foreign TARGET): brings, from package registries alone, what building
# hookrun for another system needs on a Debian x86_64 machine, and runs cargo
# for that target without changing anything for the rest of the build.
#
#   Debian's rustc-web, cargo-web, rust-web-src  Rust 1.96 with the standard
#                                       library's sources in /usr/bin and
#                                       /usr/src (no target's prebuilt std
#                                       can be fetched here: std is built
#                                       from those sources, -Zbuild-std)
#   ziglang, cargo-zigbuild (PyPI)      zig as the C compiler and linker for
#                                       macOS targets, in a venv under
#                                       target/cross-venv
#   gcc-aarch64-linux-gnu (Debian)      the C compiler and linker for arm64
#                                       Linux (ring's C, the test binary)
#   gcc-mingw-w64-x86-64 (Debian)       the C compiler and linker for
#                                       x86_64-pc-windows-gnu (MinGW-w64)
#
# RUSTC_BOOTSTRAP=1 (which -Zbuild-std needs on a stable compiler) and
# /usr/bin first on PATH are set only in the environment of the one cargo
# command cross_cargo runs; nothing is written to .cargo/config.toml, and
# the toolchain of the rest of the build (rustup's) is untouched.
#
# Usage (after `. packaging/cross-env.sh`):
#   cross_setup TARGET          install what TARGET needs (idempotent)
#   cross_cargo TARGET ARGS...  cargo ARGS for TARGET, std built from source,
#                               into target/cross (a target folder of its own:
#                               another compiler than the host build's)

cross_repo=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)
cross_venv="$cross_repo/target/cross-venv"
cross_target_dir="$cross_repo/target/cross"

cross_apt() { # cross_apt PACKAGE...: installs the Debian packages missing
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "--- apt-get install ${missing[*]}"
    local sudo=
    [ "$(id -u)" = 0 ] || sudo=sudo
    # Another build on the machine may be installing too: wait for its
    # lock (up to 20 minutes) rather than fail.
    local wait=(-o DPkg::Lock::Timeout=1200)
    $sudo apt-get "${wait[@]}" update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get "${wait[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

cross_setup() { # cross_setup TARGET
    local target=$1
    cross_apt rustc-web cargo-web rust-web-src
    case $target in
    *-apple-darwin)
        if [ ! -x "$cross_venv/bin/cargo-zigbuild" ] || ! "$cross_venv/bin/python3" -c 'import ziglang' 2>/dev/null; then
            echo "--- ziglang and cargo-zigbuild into $cross_venv"
            python3 -m venv "$cross_venv"
            "$cross_venv/bin/pip" install --quiet --disable-pip-version-check ziglang cargo-zigbuild
        fi
        ;;
    aarch64-unknown-linux-gnu)
        cross_apt gcc-aarch64-linux-gnu libc6-dev-arm64-cross
        ;;
    x86_64-pc-windows-gnu)
        cross_apt gcc-mingw-w64-x86-64
        ;;
    *)
        echo "cross-env.sh: no recipe for $target (known: aarch64-apple-darwin, x86_64-apple-darwin, aarch64-unknown-linux-gnu, x86_64-pc-windows-gnu)" >&2
        return 1
        ;;
    esac
}

cross_cargo() { # cross_cargo TARGET CARGO-ARGS...
    local target=$1
    shift
    local upper
    upper=$(printf '%s' "$target" | tr 'a-z-' 'A-Z_')
    case $target in
    *-apple-darwin)
        # cargo-zigbuild sets zig up as CC and linker for the target; it
        # runs the cargo first on PATH, Debian's. The venv comes first only
        # for its python (cargo-zigbuild finds zig through it).
        env PATH="$cross_venv/bin:/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 \
            CARGO_TARGET_DIR="$cross_target_dir" \
            cargo-zigbuild "$1" --target "$target" -Zbuild-std=std,panic_abort "${@:2}"
        ;;
    aarch64-unknown-linux-gnu)
        env PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 \
            CARGO_TARGET_DIR="$cross_target_dir" \
            "CARGO_TARGET_${upper}_LINKER=aarch64-linux-gnu-gcc" \
            "CC_${target//-/_}=aarch64-linux-gnu-gcc" \
            "AR_${target//-/_}=aarch64-linux-gnu-ar" \
            cargo "$1" --target "$target" -Zbuild-std=std,panic_abort "${@:2}"
        ;;
    x86_64-pc-windows-gnu)
        # MinGW-w64's gcc links; its ar archives ring's C. The POSIX
        # threading flavour of the compiler, as Rust's own windows-gnu
        # builds use.
        env PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 \
            CARGO_TARGET_DIR="$cross_target_dir" \
            "CARGO_TARGET_${upper}_LINKER=x86_64-w64-mingw32-gcc-posix" \
            "CC_${target//-/_}=x86_64-w64-mingw32-gcc-posix" \
            "AR_${target//-/_}=x86_64-w64-mingw32-ar" \
            cargo "$1" --target "$target" -Zbuild-std=std,panic_abort "${@:2}"
        ;;
    esac
}
