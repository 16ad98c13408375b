//! Golden tests for Claude Code: the protocol it speaks today and its own
//! cap on consecutive Stop blocks (its payloads, `fixtures/events/`, are
//! run by the protocol tests).

use crate::event::Event;
use crate::host::golden::{blocked, vars};
use crate::host::{HostEnv, HostId, host};

#[test]
fn claude_code_is_todays_protocol_and_caps_stop_loops_itself() {
    let claude = host(HostId::ClaudeCode);
    assert_eq!(claude.own_stop_block_cap(&HostEnv::new(&[])), Some(8));
    let env = vars(&[("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", "3")]);
    assert_eq!(claude.own_stop_block_cap(&HostEnv::new(&env)), Some(3));
    for id in [HostId::Gemini, HostId::Codex, HostId::Cursor] {
        assert_eq!(
            host(id).own_stop_block_cap(&HostEnv::new(&[])),
            None,
            "{id:?}"
        );
    }
    let event = Event::parse(
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash"}"#,
        None,
    )
    .unwrap();
    assert_eq!(
        claude.encode(&event, &blocked("R")).rendered,
        crate::host::claude::render(&event.id, &blocked("R"))
    );
}
