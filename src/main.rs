fn main() -> std::process::ExitCode {
    hookrun::run()
}
