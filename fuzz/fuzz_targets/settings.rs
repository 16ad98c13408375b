//! The settings loader, then everything that reads loaded settings without
//! touching the system: selection against a fixed event and `doctor`'s checks.
#![no_main]

use std::path::{Path, PathBuf};

use hookrun::diagnose::probe::{FileKind, Probe};
use hookrun::event::Event;
use hookrun::select::{SelectContext, select};
use hookrun::settings::load::load_bytes;
use hookrun::settings::{Settings, Source, SourceKind};
use libfuzzer_sys::fuzz_target;

struct Nothing;

impl Probe for Nothing {
    fn file(&self, _: &Path) -> FileKind {
        FileKind::Missing
    }
    fn on_path(&self, _: &str) -> bool {
        false
    }
    fn read(&self, _: &Path) -> Option<Vec<u8>> {
        None
    }
    fn canonical(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

const EVENT: &[u8] = br#"{"session_id":"s","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /tmp/x"}}"#;

fuzz_target!(|data: &[u8]| {
    let mut settings = Settings::default();
    let source = Source {
        path: PathBuf::from("/p/.claude/settings.json"),
        kind: SourceKind::User,
        claude_mode: false,
        trust_required: false,
    };
    load_bytes(&mut settings, source, PathBuf::from("/p/.claude"), data);
    let event = Event::parse(EVENT, Some("PreToolUse")).unwrap();
    let cx = SelectContext {
        event: &event,
        project_dir: Path::new("/p"),
        home: Some(Path::new("/home/u")),
    };
    let _ = select(&settings, &cx);
    let dcx = hookrun::diagnose::Context {
        project_dir: Path::new("/p"),
        home: Some(Path::new("/home/u")),
        claude_project_dir: Path::new("/p"),
        probe: &Nothing,
        codex_home: None,
    };
    let _ = hookrun::diagnose::diagnose(&settings, &dcx);
});
