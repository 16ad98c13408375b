//! What became of one hook, in the words every command shows: `fire`'s
//! report and audit log (`ran`, `async`, `skipped`, `not run`, `stopped`),
//! `explain` (`run`: it would run) and `list` (`enabled`, `disabled`,
//! `untrusted`). One vocabulary, so `stats` reads back exactly the words the
//! log was written with.

use serde::{Deserialize, Serialize};

/// One hook's state; [`HookState::as_str`] (and serde) give its word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HookState {
    /// It ran (its outcome is in the run).
    #[serde(rename = "ran")]
    Ran,
    /// Started detached; its output arrives with a later fire.
    #[serde(rename = "async")]
    Async,
    /// Selected, but not started (`once` already claimed, …).
    #[serde(rename = "skipped")]
    Skipped,
    /// Selected, but it cannot run (an unsupported type, no program).
    #[serde(rename = "not run")]
    NotRun,
    /// The funnel stopped it (event, matcher, `if`, trust, policy).
    #[serde(rename = "stopped")]
    Stopped,
    /// `explain`: it would run.
    #[serde(rename = "run")]
    WouldRun,
    /// `list`: it runs when its event fires.
    #[serde(rename = "enabled")]
    Enabled,
    /// `list`: a policy turns it off.
    #[serde(rename = "disabled")]
    Disabled,
    /// `list`: its file is not trusted.
    #[serde(rename = "untrusted")]
    Untrusted,
}

impl HookState {
    pub const ALL: [HookState; 9] = [
        HookState::Ran,
        HookState::Async,
        HookState::Skipped,
        HookState::NotRun,
        HookState::Stopped,
        HookState::WouldRun,
        HookState::Enabled,
        HookState::Disabled,
        HookState::Untrusted,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HookState::Ran => "ran",
            HookState::Async => "async",
            HookState::Skipped => "skipped",
            HookState::NotRun => "not run",
            HookState::Stopped => "stopped",
            HookState::WouldRun => "run",
            HookState::Enabled => "enabled",
            HookState::Disabled => "disabled",
            HookState::Untrusted => "untrusted",
        }
    }

    /// The state a word names (an audit log's `outcome` is a state word
    /// when the hook did not run to an outcome).
    pub fn from_word(word: &str) -> Option<HookState> {
        HookState::ALL.into_iter().find(|s| s.as_str() == word)
    }

    /// Selected in a fire but never started: no process, no duration.
    pub fn never_started(self) -> bool {
        matches!(
            self,
            HookState::Async | HookState::Skipped | HookState::NotRun
        )
    }
}

impl std::fmt::Display for HookState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_has_one_word_in_text_and_json() {
        for state in HookState::ALL {
            let word = state.as_str();
            assert_eq!(HookState::from_word(word), Some(state));
            assert_eq!(state.to_string(), word);
            let json = serde_json::to_value(state).unwrap();
            assert_eq!(json, serde_json::Value::from(word));
            assert_eq!(serde_json::from_value::<HookState>(json).unwrap(), state);
        }
        assert_eq!(HookState::from_word("block"), None);
        // The words the log and the reports have always used.
        assert_eq!(HookState::NotRun.as_str(), "not run");
        assert_eq!(HookState::WouldRun.as_str(), "run");
        assert_eq!(format!("{:<9}|", HookState::Ran), "ran      |");
    }
}
