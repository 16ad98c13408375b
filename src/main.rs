// Read at compile time only so that cargo rebuilds the binary when it
// changes: `.cargo/rustc-link.sh` links statically unless it is `dynamic`.
const _LINK_CHOICE: Option<&str> = option_env!("HOOKRUN_LINK");
const _LINK_ORDER_CHOICE: Option<&str> = option_env!("HOOKRUN_LINK_ORDER");
// Likewise for the list of start-up functions the link places together.
const _LINK_ORDER: &str = include_str!("../.cargo/startup-order.txt");

fn main() -> std::process::ExitCode {
    hookrun::run()
}
