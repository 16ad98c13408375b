//! Programs whose global options come before a subcommand (git, docker,
//! kubectl, npm, cargo…), and what their configuration options run.

use super::CommandPart;
use super::part::{cannot_judge, hands_over};
use super::word::Word;

/// A program whose global options come before its subcommand
/// (`git -C . push`): the options that take a value, and the flags.
pub(super) struct Multiplexer {
    pub(super) name: &'static str,
    pub(super) values: &'static [&'static str],
    pub(super) flags: &'static [&'static str],
}

pub(super) const MULTIPLEXERS: &[Multiplexer] = &[
    Multiplexer {
        name: "git",
        values: &[
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--super-prefix",
            "--config-env",
            "--attr-source",
            "--list-cmds",
        ],
        flags: &[
            "-p",
            "-P",
            "--paginate",
            "--no-pager",
            "--bare",
            "--no-replace-objects",
            "--literal-pathspecs",
            "--glob-pathspecs",
            "--noglob-pathspecs",
            "--icase-pathspecs",
            "--no-optional-locks",
            "--no-lazy-fetch",
            "--no-advice",
            "--exec-path",
            "--html-path",
            "--man-path",
            "--info-path",
        ],
    },
    Multiplexer {
        name: "docker",
        values: &[
            "-c",
            "--context",
            "-H",
            "--host",
            "-l",
            "--log-level",
            "--config",
            "--tlscacert",
            "--tlscert",
            "--tlskey",
        ],
        flags: &["-D", "--debug", "--tls", "--tlsverify"],
    },
    Multiplexer {
        name: "podman",
        values: &[
            "-c",
            "--connection",
            "--url",
            "--root",
            "--runroot",
            "--log-level",
        ],
        flags: &["--remote", "-r"],
    },
    Multiplexer {
        name: "kubectl",
        values: &[
            "-n",
            "--namespace",
            "--context",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--kubeconfig",
            "--token",
            "--as",
            "--as-group",
            "--as-uid",
            "--request-timeout",
            "--cache-dir",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--tls-server-name",
            "--username",
            "--password",
            "--profile",
            "--profile-output",
            "--log-file",
            "-v",
            "--v",
            "--vmodule",
        ],
        flags: &[
            "--insecure-skip-tls-verify",
            "--match-server-version",
            "--warnings-as-errors",
            "--disable-compression",
        ],
    },
    Multiplexer {
        name: "helm",
        values: &[
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        ],
        flags: &["--debug"],
    },
    Multiplexer {
        name: "npm",
        values: &[
            "-C",
            "--prefix",
            "--registry",
            "--userconfig",
            "--globalconfig",
            "--cache",
            "-w",
            "--workspace",
            "--loglevel",
        ],
        flags: &[
            "-g",
            "--global",
            "-y",
            "--yes",
            "-s",
            "--silent",
            "-q",
            "--quiet",
            "-d",
            "-ws",
            "--workspaces",
        ],
    },
    Multiplexer {
        name: "pnpm",
        values: &["-C", "--dir", "-w", "--filter", "-F", "--loglevel"],
        flags: &["-g", "--global", "-r", "--recursive", "-s", "--silent"],
    },
    Multiplexer {
        name: "yarn",
        values: &["--cwd", "--modules-folder", "--cache-folder"],
        flags: &["-s", "--silent"],
    },
    Multiplexer {
        name: "cargo",
        values: &["-C", "-Z", "--config", "--color"],
        flags: &[
            "-v",
            "-vv",
            "-q",
            "--quiet",
            "--verbose",
            "--frozen",
            "--locked",
            "--offline",
        ],
    },
    Multiplexer {
        name: "terraform",
        values: &[],
        flags: &[],
    },
];

/// How many subcommand positions one multiplexer gets.
pub(super) const MAX_SUBCOMMANDS: usize = 16;

/// git's configuration keys (lowercase, by prefix or suffix) whose values
/// it runs as commands.
pub(super) fn runs_config_value(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    ["alias.", "pager."].iter().any(|p| key.starts_with(p))
        || [
            "pager",
            "editor",
            "sshcommand",
            "fsmonitor",
            "askpass",
            "external",
            "helper",
            "program",
            "clean",
            "smudge",
            "process",
            "command",
            "textconv",
            "driver",
            "hook",
            "proxy",
        ]
        .iter()
        .any(|s| key.ends_with(s))
}

/// Views of a multiplexer's command from each place its subcommand may
/// start after global options (`git -C . push` → `git push`), and what its
/// configuration options run (`git -c alias.x='!rm -rf /' x`).
pub(super) fn subcommand_views(tool: &Multiplexer, args: &[&Word], part: &mut CommandPart) {
    let name = tool.name;
    let mut aliases: Vec<(String, String, bool)> = Vec::new();
    let mut subcommands: Vec<usize> = Vec::new();
    let mut frontier = vec![0_usize];
    let mut visited = vec![false; args.len() + 2];
    while let Some(i) = frontier.pop() {
        if i >= args.len() || visited[i] || subcommands.len() >= MAX_SUBCOMMANDS {
            continue;
        }
        visited[i] = true;
        let v = args[i].value.as_str();
        if name == "cargo" && i == 0 && v.starts_with('+') {
            frontier.push(1);
            continue;
        }
        if !(v.len() > 1 && v.starts_with('-')) {
            subcommands.push(i);
            continue;
        }
        config_option(name, args, i, part, &mut aliases);
        if name == "git" && v.starts_with("--config-env") {
            cannot_judge(
                part,
                "`git --config-env` takes configuration (aliases, pagers) from the environment, which may run any command".to_owned(),
            );
        }
        if v.starts_with("--") && v.contains('=') {
            frontier.push(i + 1);
        } else if tool.values.contains(&v) {
            frontier.push(i + 2);
        } else if !v.starts_with("--") && v.len() > 2 && tool.values.contains(&&v[..2]) {
            // A short option with its value attached (`-C.`, `-n5`).
            frontier.push(i + 1);
        } else if tool.flags.contains(&v) {
            frontier.push(i + 1);
        } else {
            // Unknown: a flag, or an option with a value.
            frontier.push(i + 2);
            frontier.push(i + 1);
        }
    }
    if name == "git" {
        ext_transport(args, part);
    }
    for k in subcommands {
        let rest: Vec<&str> = args[k + 1..].iter().map(|w| w.hole.as_str()).collect();
        let rest = rest.join(" ");
        let sub = args[k].value.as_str();
        if k > 0 {
            part.seen_through.push(
                format!("{name} {} {rest}", args[k].hole)
                    .trim_end()
                    .to_owned(),
            );
        }
        if name == "git" {
            // A subcommand git does not know runs `git-NAME` from `PATH`.
            part.seen_through
                .push(format!("git-{} {rest}", args[k].hole).trim_end().to_owned());
        }
        if let Some((_, expansion, expanded)) = aliases
            .iter()
            .find(|(alias, ..)| alias.eq_ignore_ascii_case(sub))
        {
            let values: Vec<&str> = args[k + 1..].iter().map(|w| w.value.as_str()).collect();
            match expansion.strip_prefix('!') {
                Some(command) if name == "git" => {
                    hands_over(
                        part,
                        "a git alias",
                        format!("{command} {}", values.join(" ")),
                        *expanded,
                    );
                }
                _ => part
                    .seen_through
                    .push(format!("{name} {expansion} {rest}").trim_end().to_owned()),
            }
        }
    }
}

/// git's `ext::` transport runs the command in the URL (`git fetch
/// 'ext::rm x'`), with its own `%` escapes; wherever the URL stands
/// (an argument, a `-c remote.x.url=ext::…`), the command is judged.
fn ext_transport(args: &[&Word], part: &mut CommandPart) {
    for arg in args {
        let Some(at) = arg.value.find("ext::") else {
            continue;
        };
        let command = &arg.value[at + "ext::".len()..];
        if arg.value.starts_with("ext::") && !command.contains('%') {
            hands_over(
                part,
                "git's ext:: transport",
                command.to_owned(),
                arg.dynamic,
            );
        } else {
            cannot_judge(
                part,
                format!(
                    "git's `ext::` transport runs the command in `{}`, which hookrun does not decode; write the command itself",
                    arg.raw
                ),
            );
        }
    }
}

/// A configuration option's value (`git -c k=v`, `-ck=v`, `cargo
/// --config=k=v`) at `args[i]`: aliases are kept in `aliases`, values git
/// runs are handed over.
fn config_option(
    name: &str,
    args: &[&Word],
    i: usize,
    part: &mut CommandPart,
    aliases: &mut Vec<(String, String, bool)>,
) {
    let v = args[i].value.as_str();
    let separate = matches!((name, v), ("git", "-c") | ("cargo", "--config"));
    let config_expanded = if separate {
        args.get(i + 1).is_some_and(|w| w.dynamic)
    } else {
        args[i].dynamic
    };
    let config = match v {
        "-c" if name == "git" => args.get(i + 1).map(|w| w.value.as_str()),
        "--config" if name == "cargo" => args.get(i + 1).map(|w| w.value.as_str()),
        _ if name == "git" && v.starts_with("-c") && v.len() > 2 => Some(&v[2..]),
        _ if name == "cargo" => v.strip_prefix("--config="),
        _ => None,
    };
    if let Some((key, value)) = config.and_then(|c| c.split_once('=')) {
        // git's configuration keys are case-insensitive (`Alias.x`).
        let lower = key.to_ascii_lowercase();
        if let Some(alias) = lower.strip_prefix("alias.") {
            aliases.push((
                alias.to_owned(),
                value.trim_matches(['"', '\'']).to_owned(),
                config_expanded,
            ));
        } else if name == "git" && runs_config_value(key) {
            hands_over(
                part,
                "git's configuration",
                value.to_owned(),
                config_expanded,
            );
        }
    }
}
