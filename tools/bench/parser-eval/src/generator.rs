//! The command generator of tests/integration/shell_differential.rs, copied
//! (the test keeps it private): the same seed gives the same commands.

/// Programs the generator disguises.
const PROGRAMS: &[&str] = &["rm", "curl", "ls", "cat", "touch", "x", "y"];

/// A small seeded generator (xorshift), so a failure is reproducible from
/// the seed it prints.
pub struct Rng(pub u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("small")
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// `text` in single quotes, as the shell reads it back.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A way of writing the command word `name` that the shell turns back
/// into `name` (or may, at run time).
fn disguise(rng: &mut Rng, name: &str) -> String {
    let encode = |style: fn(u8) -> String| name.bytes().map(style).collect::<Vec<_>>().concat();
    let hex = encode(|b| format!("\\x{b:02x}"));
    let octal = encode(|b| format!("\\{b:03o}"));
    let unicode = encode(|b| format!("\\u{b:04x}"));
    let (head, tail) = name.split_at(1);
    match rng.below(19) {
        16 => format!("\"$(echo {name})\""),
        17 => format!("${{V:-{name}}}"),
        18 => format!("$'{head}'{tail}"),
        0 => format!("$'{hex}'"),
        1 => format!("$'{octal}'"),
        2 => format!("$'{unicode}'"),
        3 => format!("'{name}'"),
        4 => format!("\"{name}\""),
        5 => format!("{head}''{tail}"),
        6 => format!("\\{name}"),
        7 => format!("./bin/[{head}]{tail}"),
        8 => format!("./bin/{head}?{}", &tail[tail.len().min(1)..]),
        9 => format!("$(echo {name})"),
        10 => format!("`echo {name}`"),
        11 => format!("{{{name},}}"),
        12 => format!("{head}\"{tail}\""),
        13 => format!("./bin/{name}"),
        _ => name.to_owned(),
    }
}

fn simple(rng: &mut Rng) -> String {
    let name = rng.pick(PROGRAMS);
    let word = disguise(rng, name);
    let mut words = vec![word];
    for _ in 0..rng.below(3) {
        words.push(
            rng.pick(&["-rf", "x", "-f", "y", "--force", "-r"])
                .to_owned(),
        );
    }
    words.join(" ")
}

/// A random command, nesting up to `depth` more levels.
pub fn compose(rng: &mut Rng, depth: usize) -> String {
    if depth == 0 {
        return simple(rng);
    }
    let inner = compose(rng, depth - 1);
    let shell = rng.pick(&["sh", "bash", "dash"]);
    match rng.below(29 + GRAMMAR_FORMS) {
        n if n >= 29 => grammar_form(n - 29, &inner, shell),
        22 => format!("printf '%s\\n' {} | {shell}", quote(&inner)),
        23 => format!(". /dev/stdin <<< {}", quote(&inner)),
        24 => format!("{shell} -s <<< {}", quote(&inner)),
        25 => format!("exec {inner}"),
        26 => format!("echo {} | xargs -0 {shell} -c", quote(&inner)),
        27 => format!("V={}; {shell} -c \"$V\"", quote(&inner)),
        28 => format!("case x in x) {inner};; esac"),
        0 => format!("{shell} -c {}", quote(&inner)),
        1 => format!("eval {}", quote(&inner)),
        2 => format!("echo {} | {shell}", quote(&inner)),
        3 => format!("{shell} <<< {}", quote(&inner)),
        4 if !inner.contains('\n') => format!("{shell} <<'EOF'\n{inner}\nEOF\n"),
        5 => format!("trap {} EXIT", quote(&inner)),
        6 => format!("env {inner}"),
        7 => format!("env -S{}", quote(&inner)),
        8 => format!("timeout 5 {inner}"),
        9 => format!("nohup {inner}"),
        10 => format!("command {inner}"),
        11 => format!("{} && {inner}", simple(rng)),
        12 => format!("{} | {inner}", simple(rng)),
        13 => format!("({inner})"),
        14 => format!("{{ {inner}; }}"),
        15 => format!("if true; then {inner}; fi"),
        16 => format!("f() {{ {inner}; }}; f"),
        17 => format!("2>&1 {inner}"),
        18 => format!("{inner} > /dev/null"),
        19 => format!("V={}; eval \"$V\"", quote(&inner)),
        20 => format!("git -c alias.z={} z", quote(&format!("!{inner}"))),
        _ => format!("{} ; {inner}", simple(rng)),
    }
}

/// How many forms [`grammar_form`] writes.
const GRAMMAR_FORMS: usize = 24;

/// The constructs bash and dash read in ways a reader easily gets wrong:
/// functions in every form, `time`/`coproc`, CR and other control
/// characters, `$[…]`, subscripts, here-documents in substitutions, wrapper
/// option spellings, startup files.
fn grammar_form(n: usize, inner: &str, shell: &str) -> String {
    let one_line = !inner.contains('\n');
    match n {
        0 => format!("f(){{ {inner}; }}; f"),
        1 => format!("f()({inner}); f"),
        2 => format!("f() while {inner}; do break; done; f"),
        3 => format!("function f {{ {inner}; }}; f"),
        4 => format!("time ({inner})"),
        5 => format!("time -p {{ {inner}; }}"),
        6 => format!("coproc ({inner}); wait"),
        7 if one_line => format!("ls\r#;{inner}"),
        8 => format!("echo $[1<<2]\n{inner}"),
        9 => format!("let 'a[$({inner})]=1'"),
        10 => format!("declare -i a; a='b[$({inner})]'; echo $((a))"),
        11 if one_line => format!("echo $(cat <<EOF)\n{inner}\nEOF\n"),
        12 if one_line => format!("cat <<EOF\r\nx\nEOF\r\n{inner}\nEOF\n"),
        13 => format!("timeout 1e3 {inner}"),
        14 => format!("timeout -s KILL inf {inner}"),
        15 => format!("timeout 0x10 {inner}"),
        16 => format!("env - {inner}"),
        17 => format!("eval -- {}", quote(inner)),
        18 => format!("nice -n 5 {inner}"),
        19 => format!("env -u HOME {inner}"),
        20 => format!("BASH_ENV=/dev/stdin {shell} -c : <<< {}", quote(inner)),
        21 => format!("ENV=/dev/stdin {shell} -i < /dev/null <<< {}", quote(inner)),
        22 => format!("ls\u{b}; {inner}"),
        _ => format!("{shell} -c {} --rcfile x", quote(inner)),
    }
}
