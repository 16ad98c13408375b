//! `hookrun doctor`: every settings source checked, each finding with its
//! file, JSON path and fix. Exit 1 when an error was found.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::common::{self, Printed};
use crate::cli::{DoctorArgs, OutputFormat};
use crate::diagnose::probe::SystemProbe;
use crate::diagnose::{self, Context, Finding};
use crate::exit::Exit;
use crate::settings::model::FileState;
use crate::settings::{Settings, Severity};

pub fn run(args: &DoctorArgs) -> Printed {
    let env = common::environment(&args.settings);
    let project_dir = common::project_dir(&env, Some(&env.current_dir));
    let settings = common::inspect_settings(&args.settings, &env, &project_dir);
    let claude_project_dir = env
        .claude_project_dir
        .as_ref()
        .map_or_else(|| project_dir.clone(), |dir| env.absolute(dir));
    let probe = SystemProbe::from_process();
    let codex_home = std::env::var_os("CODEX_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from);
    let cx = Context {
        project_dir: &project_dir,
        home: env.home.as_deref(),
        claude_project_dir: &claude_project_dir,
        codex_home: codex_home.as_deref(),
        probe: &probe,
    };
    let mut findings = diagnose::diagnose(&settings, &cx);
    findings.extend(diagnose::scrubbed_env(&settings, std::env::vars_os()));
    let errors = count(&findings, Severity::Error);
    let stdout = match args.format {
        OutputFormat::Text => text(&settings, &project_dir.display().to_string(), &findings),
        OutputFormat::Json => {
            let mut out = serde_json::to_string_pretty(&to_json(
                &settings,
                &project_dir.display().to_string(),
                &findings,
            ))
            .expect("JSON values serialise");
            out.push('\n');
            out
        }
    };
    Printed::stdout(stdout, Exit::failure_if(errors > 0))
}

fn count(findings: &[Finding], severity: Severity) -> usize {
    findings.iter().filter(|f| f.severity == severity).count()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn hooks_in(settings: &Settings, index: usize) -> usize {
    settings.hooks.iter().filter(|h| h.file == index).count()
}

fn text(settings: &Settings, project_dir: &str, findings: &[Finding]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "project: {project_dir}");
    out.push_str("settings:\n");
    for (index, file) in settings.files.iter().enumerate() {
        let mut extra = Vec::new();
        if file.state == FileState::Loaded {
            extra.push(plural(hooks_in(settings, index), "hook"));
        }
        if file.source.claude_mode {
            extra.push("Claude Code file".to_owned());
        }
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(" ({})", extra.join(", "))
        };
        let _ = writeln!(
            out,
            "  {:<8} {:<8} {}{extra}",
            file.kind().as_str(),
            file.state.as_str(),
            file.path().display()
        );
    }
    builtin_rules_text(settings, &mut out);
    for f in findings {
        let location = if f.file.as_os_str().is_empty() {
            "hookrun's environment".to_owned()
        } else if f.json_path.is_empty() {
            f.file.display().to_string()
        } else {
            format!("{}: {}", f.file.display(), f.json_path)
        };
        let _ = write!(
            out,
            "\n{}[{}] {location}\n  {}\n  fix: {}\n",
            f.severity.as_str(),
            f.check,
            f.message,
            f.fix
        );
    }
    let loaded = settings
        .files
        .iter()
        .filter(|f| f.state == FileState::Loaded)
        .count();
    let _ = writeln!(
        out,
        "\n{}, {}, {} in {} from {}",
        plural(count(findings, Severity::Error), "error"),
        plural(count(findings, Severity::Warning), "warning"),
        plural(count(findings, Severity::Note), "note"),
        plural(settings.hooks.len(), "hook"),
        plural(loaded, "file"),
    );
    out
}

/// The built-in rules (SPEC §9.5): on whatever the settings say, unless
/// managed settings turned one off by name.
fn builtin_rules_text(settings: &Settings, out: &mut String) {
    out.push_str(
        "built-in rules (hookrun protects itself; only managed settings can turn one off, with disableBuiltinRules):\n",
    );
    let (rules, warnings) = crate::selfguard::listing(settings);
    for (rule, on) in rules {
        let _ = writeln!(
            out,
            "  {:<20} {:<3} {}",
            rule.name,
            if on { "on" } else { "off" },
            rule.protects
        );
    }
    for warning in warnings {
        let _ = writeln!(out, "  warning: {warning}");
    }
}

fn to_json(settings: &Settings, project_dir: &str, findings: &[Finding]) -> Value {
    let files: Vec<Value> = settings
        .files
        .iter()
        .enumerate()
        .map(|(index, file)| {
            json!({
                "path": file.path().display().to_string(),
                "source": file.kind().as_str(),
                "state": file.state.as_str(),
                "claude_mode": file.source.claude_mode,
                "hooks": hooks_in(settings, index),
            })
        })
        .collect();
    let findings: Vec<Value> = findings
        .iter()
        .map(|f| {
            json!({
                "check": f.check,
                "severity": f.severity.as_str(),
                "file": f.file.display().to_string(),
                "json_path": f.json_path,
                "message": f.message,
                "fix": f.fix,
            })
        })
        .collect();
    let summary = json!({
        "errors": findings.iter().filter(|f| f["severity"] == "error").count(),
        "warnings": findings.iter().filter(|f| f["severity"] == "warning").count(),
        "notes": findings.iter().filter(|f| f["severity"] == "note").count(),
        "hooks": settings.hooks.len(),
    });
    let (rules, warnings) = crate::selfguard::listing(settings);
    let builtin_rules: Vec<Value> = rules
        .iter()
        .map(|(rule, on)| json!({"name": rule.name, "protects": rule.protects, "on": on}))
        .collect();
    json!({
        "project_dir": project_dir,
        "settings": files,
        "builtin_rules": builtin_rules,
        "builtin_rule_warnings": warnings,
        "findings": findings,
        "summary": summary,
    })
}
