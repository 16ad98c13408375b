// Read at compile time only so that cargo rebuilds the binary when it
// changes: `.cargo/rustc-link.sh` links statically unless it is `dynamic`.
const _LINK_CHOICE: Option<&str> = option_env!("HOOKRUN_LINK");

fn main() -> std::process::ExitCode {
    hookrun::run()
}
